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
    /// The machine's host name.
    public var hostname: String
    /// The kernel release (`uname -r`), e.g. `6.1.0-18-amd64`.
    public var kernel: String
    /// Online CPUs when the benchmark started.
    public var cpus: Int
    /// Whether the compositor thread got SCHED_FIFO.
    public var realtimeCompositor: Bool
    /// How cold runs evicted caches: `fadvise` or `fadvise+drop_caches`.
    public var cacheEviction: String
    /// The CPU frequency governor, when known.
    public var governor: String?
    /// Creates the record.
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
    /// Counted runs per cell (`--runs`).
    public var runs: Int
    /// Uncounted warm-up runs per configuration before each condition (`--warmup`).
    public var warmup: Int
    /// The launch conditions, in run order: `cold`, `warm`, `relock`, `loaded`.
    public var conditions: [String]
    /// The app configurations, alternated within each condition: `deferred`, `eager`, `manual`,
    /// `preview-only`.
    public var configs: [String]
    /// The capture outputs the app was asked for: `preview`, `video-data`, `photo`, `movie`,
    /// `analysis`.
    public var outputs: [String]
    /// The camera: `synthetic`, or `v4l2:` and the device path.
    public var camera: String
    /// The cost profile's path, for the synthetic camera.
    public var profile: String?
    /// The profile's name (from the file), used to refuse foreign baselines.
    public var profileName: String?
    /// The app command (`--app`) when it was not the reference camera-app, else nil.
    public var app: String?
    /// The compositor's refresh rate, Hz.
    public var refreshHz: Double
    /// Whether bench sent `tap` as soon as the first live frame was seen (for `shutter_to_photo`).
    public var tap: Bool
    /// Relock: how long the device stayed locked, seconds.
    public var lockSeconds: Double
    /// A run with no live frame after this many seconds failed, seconds.
    public var runTimeoutSeconds: Double
    /// Started, UTC, ISO 8601.
    public var startedAt: String
    /// Wall time of the whole invocation, seconds.
    public var wallSeconds: Double?
    /// True when Ctrl-C or a fault stopped the benchmark early.
    public var interrupted: Bool
    /// Creates the settings record.
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
    /// The app configuration, e.g. `deferred`.
    public var config: String
    /// The launch condition, e.g. `cold`.
    public var condition: String
    /// The camera, as in `BenchSettings.camera`.
    public var camera: String
    /// Counted runs attempted (warm-up runs excluded).
    public var runs: Int
    /// How many of `runs` failed (timeout, crash, no live frame).
    public var failed: Int
    /// CPU burners that ran (loaded condition), else 0.
    public var burners: Int?
    /// Per phase name: the distribution over the ok runs.
    public var phases: [String: PhaseSummary]
    /// Every counted run, ok or failed, in run order.
    public var records: [RunRecord]
    /// Phases of DESIGN.md that cannot occur in this cell, with the reason (for example
    /// `process_launch` in relock, where the app is not relaunched). Every phase is either in
    /// `phases` or here; one missing from both did not happen when it should have.
    public var notApplicable: [String: String]?

    enum CodingKeys: String, CodingKey {
      case config, condition, camera, runs, failed, burners, phases, records
      case notApplicable = "not_applicable"
    }

    /// Creates a cell.
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
    /// The unit of every value below: always `ms`.
    public var unit: String = "ms"
    /// How many ok runs have the phase (the number of samples).
    public var n: Int
    /// The shortest sample, ms.
    public var min: Double
    /// The median (type-7 percentile, see `Statistics`), ms.
    public var p50: Double
    /// The 90th percentile, ms.
    public var p90: Double
    /// The 99th percentile, ms; with few runs close to the maximum.
    public var p99: Double
    /// The longest sample, ms.
    public var max: Double
    /// The arithmetic mean, ms.
    public var mean: Double
    /// The sample standard deviation (n − 1), ms.
    public var stddev: Double
    /// Samples further than 3.5 robust z-scores (MAD-based) from the median.
    public var outliers: Int
    /// Every sample, in run order.
    public var samples: [Double]
    /// Creates a summary; `Statistics.summarize` computes one from samples.
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
    /// Whether the run reached its first live frame and finished without a fault.
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
    /// Creates a record.
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
    /// The phase compared, e.g. `first_frame_observed`.
    public var phase: String
    /// The condition both cells ran in, e.g. `cold`.
    public var condition: String
    /// The first configuration (the ratio's numerator), e.g. `deferred`.
    public var a: String
    /// The second configuration (the ratio's denominator), e.g. `eager`.
    public var b: String
    /// median(a) / median(b).
    public var ratio_p50: Double
    /// Bootstrap 95 % confidence interval of the ratio.
    public var ci95: [Double]
    /// Mann–Whitney U two-sided p-value.
    public var p_value: Double
    /// `faster`, `slower` or `no significant difference` (a relative to b).
    public var verdict: String?
    /// Creates a comparison.
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
