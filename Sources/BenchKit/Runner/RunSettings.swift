import LaunchContract
import X11Display

/// What one `bench` invocation runs.
public struct RunSettings: Sendable {
  /// Counted runs per cell.
  public var runs = 20
  /// Uncounted runs per configuration before each condition.
  public var warmup = 1
  /// Conditions, in order.
  public var conditions: [LaunchCondition] = LaunchCondition.allCases
  /// Built-in configurations (`--configs`), alternated within each condition (A B A B …).
  public var configs: [LaunchConfiguration] = LaunchConfiguration.mainJob
  /// Third-party apps named by the user (`--app-config NAME=COMMAND`), alternated after the
  /// built-in configurations.
  public var appConfigs: [AppConfiguration] = []
  /// Outputs passed to camera-app.
  public var outputs: [CaptureOutputKind] = CaptureOutputKind.defaultSelection
  /// The camera the app opens.
  public var camera: CameraSelection = .synthetic
  /// Synthetic camera cost profile path; nil = built-in default.
  public var profilePath: String?
  /// The profile's name, for results and baseline matching.
  public var profileName: String?
  /// A hash of the profile's contents (`ProfileFingerprint`), for baseline matching; nil
  /// without a synthetic camera profile.
  public var profileHash: String?
  /// `--inject-delay-ms`: passed to the app as `FIRSTFRAME_INJECT_DELAY_MS`, ms; nil = none.
  public var injectDelayMs: Int?
  /// A custom app command (argv), instead of camera-app. `{config}`, `{outputs}`, `{camera}`
  /// in it are replaced per run.
  public var appCommand: [String]?
  /// `--feed-light-board`: the V4L2 video output node the light board is written into (vivid
  /// loops it into the camera's capture node); nil = none.
  public var feedLightBoard: String?
  /// The preload library bench loads into third-party apps (`--app-config`) for their device
  /// phases and `app.main`; nil when it is not built next to bench.
  public var preloadLibrary: String?
  /// Per third-party app (by name), why the preload library cannot see it (not built, a static
  /// or set-user-ID program): its device phases and `process_launch` are then not applicable.
  public var preloadReasons: [String: String] = [:]
  /// The compositor's refresh rate, Hz.
  public var refreshHz = 60.0
  /// Send `tap` as soon as the first live frame is seen.
  public var tap = true
  /// Whether the probe reads the light board where it decodes; false (`--no-board`) leaves it
  /// change detection only.
  public var readsLightBoard = true
  /// Relock: how long the device stays locked, seconds.
  public var lockSeconds = 1.0
  /// A run with no live frame after this many seconds fails.
  public var runTimeoutSeconds = 10.0
  /// After a run, how long the app gets to end once told to quit, seconds; then SIGTERM and a
  /// third of it again before SIGKILL. An app that has to be killed fails its run.
  public var quitGraceSeconds = 3.0
  /// X11: a launch run whose app has mapped no window after this many seconds fails
  /// ("no window within N s").
  public var windowTimeoutSeconds = 10.0
  /// The results folder.
  public var outDir = ""
  /// Display surface size, pixels.
  public var displayWidth = 640
  /// Display surface size, pixels.
  public var displayHeight = 360
  /// The display path (`--display`): `shm`, `x11` or `x11:NAME`.
  public var display: DisplayPath = .sharedMemory
  /// `--load`: what the loaded condition's burners do.
  public var load: LoadKind = .cpu
  /// The loaded condition's burners: how many, on which CPUs (nil: planned when the condition
  /// starts, `BurnerPlan.current(kind: load)`).
  public var burnerPlan: BurnerPlan?
  /// On X11, what the probe reads (`--x11-read`): the app's window, or the screen where it is.
  public var x11Read: X11WindowCapture.Source = .window

  /// Creates the defaults (`swift run bench`).
  public init() {}

  /// Every configuration the benchmark alternates: the built-in ones, then the apps'.
  public var benchConfigurations: [BenchConfiguration] {
    configs.map(BenchConfiguration.builtIn) + appConfigs.map(BenchConfiguration.app)
  }

  /// What the runner may expect of the app in `configuration`.
  public func expectations(for configuration: LaunchConfiguration) -> AppExpectations {
    AppExpectations(
      configuration: configuration, outputs: outputs, tap: tap, isReferenceApp: appCommand == nil,
      display: display)
  }
}
