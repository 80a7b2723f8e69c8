/// `results.json`, schema `firstframe.results/1` (DESIGN.md "Results", a contract).
/// Durations are milliseconds (floating point).
public struct BenchResults: Codable, Sendable {
  /// The schema this file follows.
  public static let schemaIdentifier = "firstframe.results/1"

  /// Always `firstframe.results/1`.
  public var schema: String = BenchResults.schemaIdentifier
  /// The tool that wrote the file.
  public var tool: ToolInfo
  /// The machine it ran on.
  public var host: HostInfo
  /// The invocation's settings.
  public var settings: BenchSettings
  /// One cell per configuration × condition (× camera).
  public var cells: [Cell]
  /// A/B comparisons between configurations within one condition.
  public var comparisons: [Comparison]
  /// Set by `bench baseline save`: where and when this file became a baseline. Absent otherwise.
  public var baseline: BaselineInfo? = nil

  /// Creates results.
  public init(
    tool: ToolInfo, host: HostInfo, settings: BenchSettings, cells: [Cell], comparisons: [Comparison] = []
  ) {
    self.tool = tool
    self.host = host
    self.settings = settings
    self.cells = cells
    self.comparisons = comparisons
  }

  /// The tool's identity.
  public struct ToolInfo: Codable, Sendable, Hashable {
    /// `firstframe`.
    public var name: String
    /// The tool's version; baselines from another version are refused without `--force`.
    public var version: String
    /// Creates the record.
    public init(name: String = "firstframe", version: String) {
      self.name = name
      self.version = version
    }
  }

  /// The machine, and what it allowed.
  public struct HostInfo: Codable, Sendable, Hashable {
    public var hostname: String
    public var kernel: String
    public var cpus: Int
    /// Whether the compositor thread got SCHED_FIFO.
    public var realtimeCompositor: Bool
    /// How cold runs evicted caches: `fadvise` or `fadvise+drop_caches`.
    public var cacheEviction: String
    /// The CPU frequency governor, when known.
    public var governor: String?
    public init(
      hostname: String, kernel: String, cpus: Int, realtimeCompositor: Bool, cacheEviction: String,
      governor: String? = nil
    ) {
      self.hostname = hostname
      self.kernel = kernel
      self.cpus = cpus
      self.realtimeCompositor = realtimeCompositor
      self.cacheEviction = cacheEviction
      self.governor = governor
    }
  }

  /// The invocation's settings.
  public struct BenchSettings: Codable, Sendable, Hashable {
    public var runs: Int
    public var warmup: Int
    public var conditions: [String]
    public var configs: [String]
    public var outputs: [String]
    public var camera: String
    /// The cost profile's path, for the synthetic camera.
    public var profile: String?
    /// The profile's name (from the file), used to refuse foreign baselines.
    public var profileName: String?
    public var app: String?
    public var refreshHz: Double
    public var tap: Bool
    public var lockSeconds: Double
    public var runTimeoutSeconds: Double
    /// Started, UTC, ISO 8601.
    public var startedAt: String
    /// Wall time of the whole invocation, seconds.
    public var wallSeconds: Double?
    /// True when Ctrl-C or a fault stopped the benchmark early.
    public var interrupted: Bool
    public init(
      runs: Int, warmup: Int, conditions: [String], configs: [String], outputs: [String],
      camera: String, profile: String?, profileName: String?, app: String?, refreshHz: Double,
      tap: Bool, lockSeconds: Double, runTimeoutSeconds: Double, startedAt: String,
      wallSeconds: Double? = nil, interrupted: Bool = false
    ) {
      self.runs = runs
      self.warmup = warmup
      self.conditions = conditions
      self.configs = configs
      self.outputs = outputs
      self.camera = camera
      self.profile = profile
      self.profileName = profileName
      self.app = app
      self.refreshHz = refreshHz
      self.tap = tap
      self.lockSeconds = lockSeconds
      self.runTimeoutSeconds = runTimeoutSeconds
      self.startedAt = startedAt
      self.wallSeconds = wallSeconds
      self.interrupted = interrupted
    }
  }

  /// One configuration under one condition.
  public struct Cell: Codable, Sendable {
    public var config: String
    public var condition: String
    public var camera: String
    /// Counted runs attempted (warm-up runs excluded).
    public var runs: Int
    public var failed: Int
    /// CPU burners that ran (loaded condition), else 0.
    public var burners: Int?
    /// Per phase name: the distribution over the ok runs.
    public var phases: [String: PhaseSummary]
    public var records: [RunRecord]
    /// Phases of DESIGN.md that cannot occur in this cell, with the reason (for example
    /// `process_launch` in relock, where the app is not relaunched). Every phase is either in
    /// `phases` or here; one missing from both did not happen when it should have.
    public var notApplicable: [String: String]?

    enum CodingKeys: String, CodingKey {
      case config, condition, camera, runs, failed, burners, phases, records
      case notApplicable = "not_applicable"
    }

    public init(
      config: String, condition: String, camera: String, runs: Int, failed: Int, burners: Int? = nil,
      phases: [String: PhaseSummary], records: [RunRecord], notApplicable: [String: String]? = nil
    ) {
      self.notApplicable = notApplicable
      self.config = config
      self.condition = condition
      self.camera = camera
      self.runs = runs
      self.failed = failed
      self.burners = burners
      self.phases = phases
      self.records = records
    }
  }

  /// A distribution of one phase in one cell. Milliseconds.
  public struct PhaseSummary: Codable, Sendable, Hashable {
    public var unit: String = "ms"
    public var n: Int
    public var min: Double
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double
    public var mean: Double
    public var stddev: Double
    /// Samples further than 3.5 robust z-scores (MAD-based) from the median.
    public var outliers: Int
    /// Every sample, in run order.
    public var samples: [Double]
    public init(
      n: Int, min: Double, p50: Double, p90: Double, p99: Double, max: Double, mean: Double,
      stddev: Double, outliers: Int, samples: [Double]
    ) {
      self.n = n
      self.min = min
      self.p50 = p50
      self.p90 = p90
      self.p99 = p99
      self.max = max
      self.mean = mean
      self.stddev = stddev
      self.outliers = outliers
      self.samples = samples
    }
  }

  /// One run.
  public struct RunRecord: Codable, Sendable {
    /// 1-based run number within the cell.
    public var run: Int
    public var ok: Bool
    /// Why it failed (signal, exit status, timeout, last event), else nil.
    public var error: String?
    /// Phase name → duration, ms. Phases that did not happen are absent.
    public var phases: [String: Double]
    /// `stale_frames`, `dropped_frames`, `malformed_trace_lines`, …
    public var counts: [String: Int]
    /// The trace file of this run, relative to the results folder, when kept.
    public var trace: String?
    /// Wall time of this run as the runner measured it (spawn → app reaped or unlock → measured), ms.
    public var wallMs: Double?
    /// Every phase event of the run, times in ms since the run's origin (`launch.spawn`, or
    /// `relock.unlock` for relock). Optional: when present, `trace.json` and the SVG timeline
    /// show the run's real events; without it they fall back to phase durations.
    public var timeline: [TimelineEvent]?
    public init(
      run: Int, ok: Bool, error: String?, phases: [String: Double], counts: [String: Int],
      trace: String? = nil, wallMs: Double? = nil, timeline: [TimelineEvent]? = nil
    ) {
      self.timeline = timeline
      self.run = run
      self.ok = ok
      self.error = error
      self.phases = phases
      self.counts = counts
      self.trace = trace
      self.wallMs = wallMs
    }
  }

  /// Configuration `a` against `b` for one phase and condition.
  public struct Comparison: Codable, Sendable, Hashable {
    public var phase: String
    public var condition: String
    public var a: String
    public var b: String
    /// median(a) / median(b).
    public var ratio_p50: Double
    /// Bootstrap 95 % confidence interval of the ratio.
    public var ci95: [Double]
    /// Mann–Whitney U two-sided p-value.
    public var p_value: Double
    /// `faster`, `slower` or `no significant difference` (a relative to b).
    public var verdict: String?
    public init(
      phase: String, condition: String, a: String, b: String, ratio_p50: Double, ci95: [Double],
      p_value: Double, verdict: String? = nil
    ) {
      self.phase = phase
      self.condition = condition
      self.a = a
      self.b = b
      self.ratio_p50 = ratio_p50
      self.ci95 = ci95
      self.p_value = p_value
      self.verdict = verdict
    }
  }
}
