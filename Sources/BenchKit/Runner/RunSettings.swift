import DisplayServers
import HostConditions
import LaunchContract
import ResultsSchema
import ThreadTracing
import X11Display

/// What one `bench` invocation runs: the settings alone. What a benchmark holds open while it
/// runs (the conditions' hold on the machine, the tracefs instance) is its ``RunResources``.
package struct RunSettings: Sendable {
  /// Counted runs per cell.
  package var runs = 20
  /// Uncounted runs per configuration before each condition.
  package var warmup = 1
  /// Conditions, in order (default: ``LaunchCondition/defaultSet``; `low-power` and `hot` only
  /// when named).
  package var conditions: [LaunchCondition] = LaunchCondition.defaultSet
  /// Built-in configurations (`--configs`), alternated within each condition (A B A B …).
  package var configs: [LaunchConfiguration] = LaunchConfiguration.mainJob
  /// Third-party apps named by the user (`--app-config NAME=COMMAND`), alternated after the
  /// built-in configurations.
  package var appConfigs: [AppConfiguration] = []
  /// Outputs passed to camera-app.
  package var outputs: [CaptureOutputKind] = CaptureOutputKind.defaultSelection
  /// The camera the app opens.
  package var camera: CameraSelection = .synthetic
  /// Synthetic camera cost profile path; nil = built-in default.
  package var profilePath: String?
  /// The profile's name, for results and baseline matching.
  package var profileName: String?
  /// A hash of the profile's contents (`ProfileFingerprint`), for baseline matching; nil
  /// without a synthetic camera profile.
  package var profileHash: String?
  /// `bench ab` only: what both revisions run on alike (the one profile, whether the simulated
  /// camera's sources differ), recorded as `settings.ab`; nil outside `bench ab`.
  package var abPin: BenchResults.ABPin?
  /// `--inject-delay-ms`: passed to the app as `FIRSTFRAME_INJECT_DELAY_MS`, ms; nil = none.
  package var injectDelayMs: Int?
  /// `--app-user USER` as given; nil: the default (``AppUser/defaultName(benchIsRoot:environment:)``).
  package var appUserName: String?
  /// Who the app runs as, resolved in the pipeline's first step (``AppUser/resolve(given:cameraNode:benchIsRoot:environment:)``);
  /// nil: bench's own user, unchanged (a runner made without the pipeline: tests, benchmarks).
  package var appUser: AppUser?
  /// A custom app command (argv), instead of camera-app. `{config}`, `{outputs}`, `{camera}`
  /// in it are replaced per run.
  package var appCommand: [String]?
  /// `--feed-light-board`: the V4L2 video output node the light board is written into (vivid
  /// loops it into the camera's capture node); nil = none.
  package var feedLightBoard: String?
  /// The preload library bench loads into third-party apps (`--app-config`) for their device
  /// phases and `app.main`; nil when it is not built next to bench.
  package var preloadLibrary: String?
  /// Per third-party app (by name), why the preload library cannot see it (not built, a static
  /// or set-user-ID program): its device phases and `process_launch` are then not applicable.
  package var preloadReasons: [String: String] = [:]
  /// `--preload-camera-app`: the preload library is loaded into camera-app's runs (the built-in
  /// configurations) too, and their device phases come from its events, as every third-party
  /// app's do: one instrument for every app in a table. camera-app's own `device.*` events stay
  /// in each run's timeline.
  package var preloadCameraApp = false
  /// The compositor's refresh rate, Hz.
  package var refreshHz = 60.0
  /// Send `tap` as soon as the first live frame is seen.
  package var tap = true
  /// Whether the probe reads the light board where it decodes; false (`--no-board`) leaves it
  /// change detection only.
  package var readsLightBoard = true
  /// Relock: how long the device stays locked, seconds.
  package var lockSeconds = 1.0
  /// A run with no live frame after this many seconds fails.
  package var runTimeoutSeconds = 10.0
  /// After a run, how long the app gets to end once told to quit, seconds; then SIGTERM and a
  /// third of it again before SIGKILL. An app that has to be killed fails its run.
  package var quitGraceSeconds = BenchResults.BenchSettings.defaultQuitGraceSeconds
  /// X11: a launch run whose app has mapped no window after this many seconds fails
  /// ("no window within N s").
  package var windowTimeoutSeconds = 10.0
  /// The results folder.
  package var outDir = ""
  /// Display surface size, pixels.
  package var displayWidth = 640
  /// Display surface size, pixels.
  package var displayHeight = 360
  /// The display path (`--display`): `shm`, `x11` or `x11:NAME`.
  package var display: DisplayPath = .sharedMemory
  /// `--load`: what the loaded condition's burners do.
  package var load: LoadKind = .cpu
  /// The loaded condition's burners: how many, on which CPUs (nil: planned when the condition
  /// starts, `BurnerPlan.current(kind: load)`).
  package var burnerPlan: BurnerPlan?
  /// `--low-power`: how the `low-power` condition caps the CPU.
  package var lowPower: LowPowerRequest = .auto
  /// How this machine carries out `low-power` (resolved when the command is prepared, when the
  /// condition is asked for), or why it cannot: its cells are then not run.
  package var lowPowerPlan: Result<LowPowerPlan, LowPowerUnavailable>?
  /// `--soak-seconds`: how long the `hot` condition's soak runs before each launch, seconds.
  package var soakSeconds = 60.0
  /// `--thread-states`: how the runs' thread states are recorded (auto: tracefs where usable).
  package var threadStates: ThreadStatesRequest = .auto
  /// Whether a condition that needs the whole machine waits for another bench that holds it
  /// (false: `--no-wait`, refused with exit status 2 before anything runs).
  package var waitsForMachine = true
  /// On X11, what the probe reads (`--x11-read`): the app's window, or the screen where it is.
  package var x11Read: X11WindowCapture.Source = .window

  /// Creates the defaults (`swift run bench`).
  package init() {}

  /// Every configuration the benchmark alternates: the built-in ones, then the apps'.
  package var benchConfigurations: [BenchConfiguration] {
    configs.map(BenchConfiguration.builtIn) + appConfigs.map(BenchConfiguration.app)
  }

  /// What the runner may expect of the app in `configuration`.
  package func expectations(for configuration: LaunchConfiguration) -> AppExpectations {
    AppExpectations(
      configuration: configuration, outputs: outputs, tap: tap, isReferenceApp: appCommand == nil,
      display: display)
  }
}

extension RunSettings {
  /// What each run's probe is asked for: the surface's size and refresh, and what X11 reads.
  package var probeRequest: ProbeRequest {
    ProbeRequest(width: displayWidth, height: displayHeight, refreshHz: refreshHz, x11Read: x11Read)
  }
}
