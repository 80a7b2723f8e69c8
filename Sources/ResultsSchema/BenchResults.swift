/// `results.json`, schema `firstframe.results/1` (DESIGN.md "Results", a contract).
///
/// Durations are milliseconds (floating point), differences of `CLOCK_MONOTONIC` readings: the
/// one clock the runner, the app and the probe stamp phase events with. The only wall-clock
/// values are `settings.startedAt` and `baseline.savedAt` (UTC, ISO 8601).
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
  /// True when the bench that ran the benchmark wrote this file as its final save (at the end, or
  /// after Ctrl-C: see `settings.interrupted`); false when it is a snapshot that bench may still
  /// add to, or was rebuilt from the run journal of a bench that died before its final save.
  /// Absent in files from before the run journal.
  public var complete: Bool? = nil

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
    /// The machine's host name (`ProcessInfo.hostName`).
    public var hostname: String
    /// The kernel release, as `uname -r` prints it (`uname(2)`'s `release`).
    public var kernel: String
    /// CPUs online when the benchmark started (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public var cpus: Int
    /// Whether the probe's thread — the compositor (shm) or the X11 probe — got SCHED_FIFO in at
    /// least one run.
    public var realtimeCompositor: Bool
    /// How cold runs evicted caches: `fadvise` or `fadvise+drop_caches`.
    public var cacheEviction: String
    /// The CPU frequency governor of cpu0 (`scaling_governor` in sysfs, e.g. `performance`), when
    /// the kernel exposes it.
    public var governor: String?
    /// The machine's identity (`/etc/machine-id`, else `/var/lib/dbus/machine-id`): a stored
    /// baseline from another machine is refused. Absent when neither file exists.
    public var machineId: String?
    /// The CPU's model name (`model name` in `/proc/cpuinfo`), when the kernel says.
    public var cpuModel: String?
    /// Whether the app's camera frame thread got real-time priority in at least one run (its
    /// `device.realtime_priority` event, field `granted`); absent when the app never said.
    public var realtimeCamera: Bool?
    /// Creates the record.
    public init(
      hostname: String, kernel: String, cpus: Int, realtimeCompositor: Bool, cacheEviction: String,
      governor: String? = nil, machineId: String? = nil, cpuModel: String? = nil, realtimeCamera: Bool? = nil
    ) {
      self.hostname = hostname
      self.kernel = kernel
      self.cpus = cpus
      self.realtimeCompositor = realtimeCompositor
      self.cacheEviction = cacheEviction
      self.governor = governor
      self.machineId = machineId
      self.cpuModel = cpuModel
      self.realtimeCamera = realtimeCamera
    }
  }

  /// The invocation's settings.
  public struct BenchSettings: Codable, Sendable, Hashable {
    /// Counted runs per cell (`--runs`).
    public var runs: Int
    /// Uncounted runs per configuration before each condition (`--warmup`); they are not recorded.
    public var warmup: Int
    /// The conditions, in the order they ran: `cold`, `warm`, `relock`, `loaded`.
    public var conditions: [String]
    /// The configurations, alternated within each condition (A B A B …): `deferred`, `eager`,
    /// `manual`, `preview-only`.
    public var configs: [String]
    /// The capture outputs the app was asked to enable: `preview`, `photo`, `movie`, `analysis`.
    public var outputs: [String]
    /// The camera the app opened: `synthetic` or `v4l2:/dev/videoN`.
    public var camera: String
    /// The cost profile's absolute path (`--profile`), for the synthetic camera; absent with the
    /// built-in default.
    public var profile: String?
    /// The profile's name (from the file), used to refuse foreign baselines.
    public var profileName: String?
    /// A hash of the cost profile's contents (`fnv1a64:` and 16 hex digits, over its canonical
    /// JSON: keys sorted), so that two profiles with one name but other costs never match. Absent
    /// without a synthetic camera profile (`--app`, a V4L2 camera).
    public var profileHash: String?
    /// `--inject-delay-ms`: the delay camera-app was told to add before starting preview
    /// (`FIRSTFRAME_INJECT_DELAY_MS`), ms; absent when none was injected.
    public var injectDelayMs: Int?
    /// The app command (`--app`): its executable resolved to a path, then its arguments, joined by
    /// spaces. Absent when bench ran camera-app.
    public var app: String?
    /// The compositor's refresh rate, Hz (scanouts per second).
    public var refreshHz: Double
    /// Whether the runner sent `tap` as soon as the first live frame was seen (off with `--no-tap`).
    public var tap: Bool
    /// Relock: how long the app stayed locked before each unlock, seconds (`CLOCK_MONOTONIC`).
    public var lockSeconds: Double
    /// A run with no live frame this many seconds after its start failed, seconds
    /// (`CLOCK_MONOTONIC`); so did one whose awaited app events were still missing at twice this.
    public var runTimeoutSeconds: Double
    /// False when the probe was told to ignore the light board (`--no-board`): every first frame
    /// comes from change detection. Absent when the probe read the board wherever it decoded.
    public var lightBoard: Bool?
    /// When the benchmark started: wall clock, UTC, ISO 8601 to the second
    /// (`2026-12-01T10:06:53Z`).
    public var startedAt: String
    /// How long the runs took, seconds (`CLOCK_MONOTONIC`, not the wall clock): from the start of
    /// the first condition to the end of the last run. Absent until the benchmark has finished.
    public var wallSeconds: Double?
    /// True when Ctrl-C or a fault stopped the benchmark early.
    public var interrupted: Bool
    /// The display path (`--display`): `shm` (the shared-memory surface and bench's compositor),
    /// `x11` (a private Xvfb bench started) or `x11:NAME` (an existing X server). Absent in
    /// results from before the X11 path, which were all `shm`.
    public var display: String?
    /// The X server the runs used, on the X11 paths.
    public var displayServer: DisplayServerInfo?
    /// What `--feed-light-board` wrote into the looped output node; absent without it.
    public var lightBoardFeed: LightBoardFeedInfo?
    /// The third-party apps named by the user (`--app-config NAME=COMMAND`): name → the command
    /// as given (before `{device}` and the other placeholders are replaced). Absent without any.
    public var appConfigs: [String: String]? = nil
    /// Those of them given with `--headless-app-config`: programs with no window, whose runs
    /// ended at their first dequeued buffer. Absent without any.
    public var headlessAppConfigs: [String]? = nil
    /// Cells that were not run because they cannot apply, `condition/config` → why (relock for
    /// an app that cannot be told to lock). Absent when every cell ran.
    public var notRun: [String: String]? = nil
    /// X11: a launch run whose app mapped no window within this many seconds failed
    /// (`--window-timeout`), seconds. Absent on the shared-memory path and in older results.
    public var windowTimeoutSeconds: Double? = nil
    /// The cells (`condition/config`) whose first counted run followed one uncounted priming run
    /// of the same app, because no run preceded it (`--warmup 0`, a warm or loaded cell whose
    /// configuration no earlier condition ran); each cell keeps that run as `priming`. Absent
    /// when none was primed.
    public var primedCells: [String]? = nil
    /// The loaded condition's burners (`--load`): what they do, how many, on which CPUs, and the
    /// limits that sized them. Absent in results from before `--load` (they were all `cpu`).
    public var load: LoadInfo? = nil
    /// Creates the record (`wallSeconds` and `interrupted` are filled in at the end).
    public init(
      runs: Int, warmup: Int, conditions: [String], configs: [String], outputs: [String],
      camera: String, profile: String?, profileName: String?, app: String?, refreshHz: Double,
      tap: Bool, lockSeconds: Double, runTimeoutSeconds: Double, startedAt: String,
      wallSeconds: Double? = nil, interrupted: Bool = false, display: String? = nil,
      displayServer: DisplayServerInfo? = nil
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
      self.display = display
      self.displayServer = displayServer
    }
  }

  /// The light board fed into a V4L2 output node that the driver loops into the camera's capture
  /// node (`--feed-light-board`). When looping is off or the capture format cannot carry the
  /// board, runs find their first live frame by change detection on the driver's own pattern:
  /// each run's `method` says which it was.
  public struct LightBoardFeedInfo: Codable, Sendable, Hashable {
    /// The output node written, e.g. `/dev/video2`.
    public var output: String
    /// The capture node whose format the output followed (the camera).
    public var capture: String
    /// Whether the capture node's "Loop Video" control was on when feeding began; absent when the
    /// node has no such control (not vivid).
    public var loopVideo: Bool?
    /// Frames queued, in all.
    public var framesSent: Int
    /// Ticks with no free output buffer.
    public var framesSkipped: Int
    /// Frame periods the feeder's thread was late for and skipped.
    public var deadlinesMissed: Int
    /// The frame rate fed, frames per second (the capture node's).
    public var framesPerSecond: Double
    /// The output formats, in the order the apps' capture formats asked for them (`640x480 YUYV`).
    public var formats: [String]
    /// A capture format the board could not be written in, if one was seen.
    public var unsupportedFormat: String?
    /// Whether the feeder's thread got `SCHED_FIFO`.
    public var realtime: Bool
    /// Why feeding stopped early, if it did.
    public var failure: String?
    /// For each format the output followed after the first: ms from seeing the capture node's new
    /// format to the output streaming it (vivid loops only while both agree, so an app's frames
    /// before that show vivid's own pattern). Absent in older results.
    public var followMilliseconds: [Double]? = nil
    /// The feeder thread's CPU time over its wall time: the share of one CPU feeding took from
    /// the machine the apps ran on (it runs at real-time priority). Absent in older results.
    public var cpuShare: Double? = nil
    /// Runs before which bench set the camera to the format the same configuration left in its
    /// last run (the feeder then followed it before the app started: no follow inside the run),
    /// and runs for which that failed (the node was busy, or the feeder did not follow within
    /// 3 s; the run then went ahead). Absent in older results.
    public var primedRuns: Int? = nil
    /// See `primedRuns`.
    public var primingFailed: Int? = nil
    /// Creates the record.
    public init(
      output: String, capture: String, loopVideo: Bool?, framesSent: Int, framesSkipped: Int,
      deadlinesMissed: Int, framesPerSecond: Double, formats: [String], unsupportedFormat: String?,
      realtime: Bool, failure: String?
    ) {
      self.output = output
      self.capture = capture
      self.loopVideo = loopVideo
      self.framesSent = framesSent
      self.framesSkipped = framesSkipped
      self.deadlinesMissed = deadlinesMissed
      self.framesPerSecond = framesPerSecond
      self.formats = formats
      self.unsupportedFormat = unsupportedFormat
      self.realtime = realtime
      self.failure = failure
    }
  }

  /// The X server of an X11 benchmark.
  public struct DisplayServerInfo: Codable, Sendable, Hashable {
    /// The display name, `:N`.
    public var name: String
    /// The server's vendor string (`The X.Org Foundation`).
    public var vendor: String
    /// The vendor's release number (12101007 is X.Org 21.1.7).
    public var release: Int
    /// True when bench started it (a private Xvfb), false for an existing server (`x11:NAME`).
    public var started: Bool
    /// The screen bench gave its Xvfb, `W×H×depth`; absent for an existing server.
    public var screen: String?
    /// Whether bench's Xvfb got `SCHED_FIFO`; absent for an existing server (not bench's to change).
    public var realtime: Bool?
    /// Whether the probe's images crossed in shared memory (MIT-SHM) rather than the socket.
    public var sharedMemory: Bool
    /// What the probe read (`--x11-read`): `window` (the app's window contents) or `screen` (the
    /// screen where the window is, after any compositing window manager).
    public var probeReads: String?
    /// Creates the record.
    public init(
      name: String, vendor: String, release: Int, started: Bool, screen: String?, realtime: Bool?,
      sharedMemory: Bool
    ) {
      self.name = name
      self.vendor = vendor
      self.release = release
      self.started = started
      self.screen = screen
      self.realtime = realtime
      self.sharedMemory = sharedMemory
    }
  }

  /// One configuration under one condition.
  public struct Cell: Codable, Sendable {
    /// The configuration: `deferred`, `eager`, `manual` or `preview-only`.
    public var config: String
    /// The condition: `cold`, `warm`, `relock` or `loaded`.
    public var condition: String
    /// The camera: `synthetic` or `v4l2:/dev/videoN`.
    public var camera: String
    /// Counted runs attempted (warm-up runs excluded).
    public var runs: Int
    /// How many of `runs` failed (`ok` false): they are in `records`, not in `phases`.
    public var failed: Int
    /// Loaded condition only: the CPU burner processes that ran (0 when they could not be
    /// started). Absent in the other conditions.
    public var burners: Int?
    /// Per phase name: the distribution over the ok runs, ms.
    public var phases: [String: PhaseSummary]
    /// Every counted run, in run order, failed ones included.
    public var records: [RunRecord]
    /// Phases of DESIGN.md that cannot occur in this cell, with the reason (for example
    /// `process_launch` in relock, where the app is not relaunched). Every phase is either in
    /// `phases` or here; one missing from both did not happen when it should have.
    public var notApplicable: [String: String]?
    /// How the probe found the first live frame of the cell's ok runs: a count per method
    /// (`board`: the light board's capture time; `change`: a run of changing scanouts at the
    /// camera's cadence, see `LiveFrameDetector`). A headline that rests on `change` alone is
    /// noted under the table.
    public var detection: [String: Int]?

    /// The uncounted run that primed this cell (`settings.primedCells`: `--warmup 0`, a warm or
    /// loaded cell whose configuration had not run yet), kept whole with its outcome and its
    /// device power-up; its numbers are in no distribution. Absent when the cell was not primed.
    public var priming: RunRecord? = nil

    enum CodingKeys: String, CodingKey {
      case config, condition, camera, runs, failed, burners, phases, records, detection, priming
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

  /// A distribution of one phase in one cell. Milliseconds, from `CLOCK_MONOTONIC` event stamps.
  ///
  /// Percentiles are type 7 (linear interpolation between closest ranks; see `Sampling.Percentile`). With
  /// no samples every value is 0 and `n` is 0 (JSON cannot hold NaN).
  public struct PhaseSummary: Codable, Sendable, Hashable {
    /// Always `ms`: the unit of `min` … `stddev` and `samples`.
    public var unit: String = "ms"
    /// How many samples: the ok runs in which the phase occurred.
    public var n: Int
    /// The shortest sample, ms.
    public var min: Double
    /// The median, ms.
    public var p50: Double
    /// The 90th percentile, ms.
    public var p90: Double
    /// The 99th percentile, ms; with few runs, close to `max` (read it as the worst run).
    public var p99: Double
    /// The longest sample, ms.
    public var max: Double
    /// The arithmetic mean, ms.
    public var mean: Double
    /// The sample standard deviation (n − 1 in the denominator), ms; 0 for fewer than two samples.
    public var stddev: Double
    /// Samples further than 3.5 robust z-scores (MAD-based) from the median.
    public var outliers: Int
    /// Every sample, in run order, ms.
    public var samples: [Double]
    /// Creates a summary (`Statistics.summarize(_:)` computes one from samples).
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
    /// Whether the run counts: nothing failed and the probe saw a live frame. Only ok runs feed
    /// the cell's `phases`.
    public var ok: Bool
    /// Why it failed (signal, exit status, timeout, last event), else nil.
    public var error: String?
    /// Phase name → duration, ms (`CLOCK_MONOTONIC`). Phases that did not happen are absent.
    public var phases: [String: Double]
    /// Event counts of the run: `stale_frames`, `dropped_frames`, `malformed_trace_lines`, …
    public var counts: [String: Int]
    /// The trace file of this run, relative to the results folder, when kept.
    public var trace: String?
    /// Elapsed time of this run as the runner measured it, ms, on `CLOCK_MONOTONIC` ("wall" as in
    /// elapsed, not the wall clock): spawn → app shut down, or unlock → measurement done (relock).
    public var wallMs: Double?
    /// Every phase event of the run, times in ms since the run's origin (`launch.spawn`, or
    /// `relock.unlock` for relock) on `CLOCK_MONOTONIC`. Optional: when present, `trace.json` and
    /// the SVG timeline show the run's real events; without it they fall back to phase durations.
    /// A reader that needs no timelines skips them (``ResultsFile/load(path:timelines:)``).
    public var timeline: [TimelineEvent]?
    /// How the probe found the run's first live frame: `board` or `change` (absent when it found
    /// none).
    public var detection: String?

    enum CodingKeys: String, CodingKey {
      case run, ok, error, phases, counts, trace, wallMs, timeline, detection
    }
    /// Creates a record.
    public init(
      run: Int, ok: Bool, error: String?, phases: [String: Double], counts: [String: Int],
      trace: String? = nil, wallMs: Double? = nil, timeline: [TimelineEvent]? = nil,
      detection: String? = nil
    ) {
      self.detection = detection
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
    /// The condition both cells ran under.
    public var condition: String
    /// The first configuration, e.g. `deferred`.
    public var a: String
    /// The configuration `a` is measured against, e.g. `eager`.
    public var b: String
    /// `ratio_p50`: median(a) / median(b) of the phase's samples: a ratio of milliseconds, so unitless; below 1
    /// means `a` is faster.
    public var ratioP50: Double
    /// Bootstrap 95 % confidence interval of the ratio: `[lower, upper]`, unitless.
    public var ci95: [Double]
    /// `p_value`: the Mann–Whitney U two-sided p-value.
    public var pValue: Double
    /// `faster`, `slower`, `no significant difference` or `not enough data` (a relative to b).
    public var verdict: String?
    /// The JSON keys: `ratio_p50` and `p_value` keep their snake_case names in `results.json`.
    enum CodingKeys: String, CodingKey {
      case phase, condition, a, b, ci95, verdict
      case ratioP50 = "ratio_p50"
      case pValue = "p_value"
    }

    /// Creates a comparison.
    public init(
      phase: String, condition: String, a: String, b: String, ratioP50: Double, ci95: [Double],
      pValue: Double, verdict: String? = nil
    ) {
      self.phase = phase
      self.condition = condition
      self.a = a
      self.b = b
      self.ratioP50 = ratioP50
      self.ci95 = ci95
      self.pValue = pValue
      self.verdict = verdict
    }
  }
}
