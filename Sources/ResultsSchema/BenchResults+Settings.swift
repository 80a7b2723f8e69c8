extension BenchResults {
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
    /// `x11` (a private Xvfb bench started), `x11:NAME` (an existing X server), `wayland`,
    /// `wayland+xwayland` (with Xwayland) or `wayland-cage` (a private sway or cage bench started) or `wayland:SOCKET` (a running
    /// compositor). Absent in results from before the X11 path, which were all `shm`.
    public var display: String?
    /// The display server the runs used: the X server on the X11 paths, the compositor on Wayland's.
    public var displayServer: DisplayServerInfo?
    /// What `--feed-light-board` wrote into the looped output node; absent without it.
    public var lightBoardFeed: LightBoardFeedInfo?
    /// The third-party apps named by the user (`--app-config NAME=COMMAND`): name → the command
    /// as given (before `{device}` and the other placeholders are replaced). Absent without any.
    public var appConfigs: [String: String]? = nil
    /// Those of them given with `--headless-app-config`: programs with no window, whose runs
    /// ended at their first dequeued buffer. Absent without any.
    public var headlessAppConfigs: [String]? = nil
    /// True when the preload library was loaded into camera-app's runs too
    /// (`--preload-camera-app`): their device phases come from its events (`source: "preload"`),
    /// as the third-party apps' do, and camera-app's own `device.*` events are only in the
    /// timelines. Absent otherwise (camera-app's device phases from its own trace).
    public var preloadCameraApp: Bool? = nil
    /// Cells that were not run because they cannot apply, `condition/config` → why (relock for
    /// an app that cannot be told to lock). Absent when every cell ran.
    public var notRun: [String: String]? = nil
    /// X11: a launch run whose app mapped no window within this many seconds failed
    /// (`--window-timeout`), seconds. Absent on the shared-memory path and in older results.
    public var windowTimeoutSeconds: Double? = nil
    /// `--quit-grace`: after a run the app got this many seconds to quit before SIGTERM (and a
    /// third of it again before SIGKILL; an app that had to be killed failed its run), seconds.
    /// Absent at the default (``defaultQuitGraceSeconds``), as in results from before it was
    /// recorded, which all gave the default.
    public var quitGraceSeconds: Double? = nil
    /// The quit grace of results that record none, and `--quit-grace`'s default: 3 seconds.
    public static let defaultQuitGraceSeconds = 3.0
    /// The cells (`condition/config`) whose first counted run followed one uncounted priming run
    /// of the same app, because no run preceded it (`--warmup 0`, a warm or loaded cell whose
    /// configuration no earlier condition ran); each cell keeps that run as `priming`. Absent
    /// when none was primed.
    public var primedCells: [String]? = nil
    /// The loaded condition's burners (`--load`): what they do, how many, on which CPUs, and the
    /// limits that sized them. Absent in results from before `--load` (they were all `cpu`).
    public var load: LoadInfo? = nil
    /// The `low-power` condition's cap as planned (`--low-power`): `cpufreq at 0.5 of
    /// cpuinfo_max_freq`, or `cgroup-v1-quota 50000 100000` (quota and period, µs). Each run
    /// records what it applied and read back (`lowPower`). Absent without `low-power`, or where it
    /// could not run (`notRun` says why).
    public var lowPower: String? = nil
    /// `--soak-seconds`: the `hot` condition's soak before each launch, s. Absent without `hot`.
    public var soakSeconds: Double? = nil
    /// `--camera pipewire:PATH`: the daemon that served the camera (`pipewire 0.3.65 with
    /// WirePlumber, node firstframe.camera`). Each run records its state (`camera_daemon`).
    public var cameraDaemon: String? = nil
    /// `bench ab` only: what both revisions ran on alike — the one cost profile and whether the
    /// simulated camera's sources differ between them (``ABPin``). Absent outside `bench ab`
    /// and in results from before it was recorded.
    public var ab: ABPin? = nil
    /// `bench ab --sequential` only: the design the comparison stopped by and where each cell
    /// stopped (``SequentialAB``). Absent with `--fixed`, outside `bench ab` and in results from
    /// before it was recorded (issue 39).
    public var sequential: SequentialAB? = nil
    /// How the runs' thread states were recorded (`--thread-states`): `tracefs` (the kernel's
    /// scheduler events, exact), `sampled` (`/proc` totals) or `off`. Absent in results from
    /// before it was recorded (issue 27).
    public var threadStates: String? = nil
    /// Whether the runs' device phases come from the kernel (`kernel`: tracefs has V4L2's
    /// tracepoints and syscall tracing), or why not (`absent: <reason>`; the preload library and
    /// the app's trace remain). Absent in results from before it was recorded (issue 40).
    public var kernelDevicePhases: String? = nil
    /// Who the app ran as (`--app-user`, ``AppUserRecord``). Absent in results from before it
    /// was recorded (issue 41).
    public var appUser: AppUserRecord? = nil
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
}
