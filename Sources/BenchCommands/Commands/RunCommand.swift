import BenchKit
import HostConditions
import LaunchContract
import X11Display

/// `bench` (the main job): launches the camera app under each condition and configuration and
/// reports per-phase distributions.
package enum RunCommand: Command {
  /// The command line, parsed (``RunOptions``).
  package typealias Options = RunOptions
  /// `--format` (``RunFormat``).
  package typealias Format = RunFormat
  /// `bench`'s benchmark, prepared (``RunJob``).
  package typealias Run = RunJob

  /// The defaults, stated once (in `RunSettings`).
  private static let defaults = RunSettings()

  // The bounds are ones the runner can carry out: 4 conditions × 4 configurations ×
  // (runs + warmup) runs stays a small Int, and a timeout or lock time in ns (seconds × 1e9,
  // added to the monotonic clock) stays far inside UInt64.
  static let runs = Option(
    "--runs", "N", "counted runs per cell", default: defaults.runs, parser: .integer(in: 1...100_000))
  static let warmup = Option(
    "--warmup", "N",
    "uncounted runs per configuration before each condition (0: a warm or loaded cell no run precedes is primed by one)",
    default: defaults.warmup,
    parser: .integer(in: 0...100_000))
  static let conditions = Option(
    "--conditions", "LIST", "cold,warm,relock,loaded,low-power,hot (low-power and hot only when named)",
    default: defaults.conditions, shownAs: "cold,warm,relock,loaded",
    parser: .list())
  static let configs = Option(
    "--configs", "LIST", "deferred,eager,manual,preview-only (alternated A B A B …)",
    default: defaults.configs,
    parser: .list())
  static let outputs = Option(
    "--outputs", "LIST", "preview,photo,movie,analysis", default: defaults.outputs,
    parser: .list(of: CaptureOutputKind.selectable))
  static let camera = Option(
    "--camera", "CAMERA",
    "synthetic, v4l2:/dev/videoN, or pipewire:/dev/videoN (the node served by a private PipeWire bench starts)",
    default: defaults.camera,
    parser: .converting(CameraSelection.init(parsing:)))
  static let profile = Option<String?>(
    "--profile", "FILE", "synthetic camera cost profile",
    shownAs: "Benchmarks/profiles/default.json (built in)",
    parser: .fileName)
  static let app = Option<String?>(
    "--app", "\"COMMAND ARGS\"",
    "benchmark another app (split into argv without a shell; {config}, {outputs}, {camera} are replaced)",
    parser: .text)
  static let feedLightBoard = Option<String?>(
    "--feed-light-board", "NODE",
    "write the light board into the V4L2 output NODE that vivid loops into the camera (--camera v4l2:… or pipewire:…)",
    parser: .text)
  static let appConfig = Option<AppConfiguration?>(
    "--app-config", "N=CMD",
    "a third-party app, a configuration named N that runs CMD (repeatable; {device} is the --camera v4l2 node, {node} the pipewire node's name); without --configs only these run",
    parser: ValueParser(
      parse: { (text, _) throws(UsageError) -> AppConfiguration in try AppConfiguration(parsing: text) },
      describe: { "\($0.name)=\($0.command)" }))
  static let headlessAppConfig = Option<AppConfiguration?>(
    "--headless-app-config", "N=CMD",
    "a program with no window (a capture client, a pipeline into fakesink), configuration N: a run ends at its first dequeued buffer, seen by the preload library (repeatable)",
    parser: ValueParser(
      parse: { (text, _) throws(UsageError) -> AppConfiguration in
        try AppConfiguration(parsing: text, headless: true)
      },
      describe: { "\($0.name)=\($0.command)" }))
  static let appUser = Option<String?>(
    "--app-user", "USER",
    "when bench is root, the user the app runs as, with only its camera, display and scratch folders (root: an app that could have reached the results)",
    shownAs: "the user who ran sudo, else nobody", parser: .text)
  static let preloadCameraApp = Flag(
    "--preload-camera-app",
    "load the preload library into camera-app too: its device phases measured as the --app-config apps' are (its own stay in the timeline)"
  )
  static let refreshHz = Option(
    "--refresh-hz", "N", "display refresh rate", default: defaults.refreshHz, parser: .refreshRate)
  static let display = Option(
    "--display", "DISPLAY",
    "shm, x11 (a private Xvfb), x11:NAME (an existing X server, e.g. x11::0), wayland (a private headless sway), wayland+xwayland (sway with Xwayland: X11 apps get its DISPLAY), wayland-cage or wayland:SOCKET (a running compositor, e.g. wayland:wayland-0)",
    default: defaults.display, parser: .displayPath)
  static let x11Read = Option(
    "--x11-read", "WHAT",
    "X11: what the probe reads, the app's window or the screen where it is (what a compositing window manager shows)",
    default: defaults.x11Read, parser: .choice())
  static let lockSeconds = Option(
    "--lock-seconds", "S", "relock: how long the device stays locked", default: defaults.lockSeconds,
    parser: .number(in: NumberRange(atLeast: 0, atMost: 3600)))
  static let runTimeout = Option(
    "--run-timeout", "S", "a run with no live frame (headless: no first buffer) after S seconds fails",
    default: defaults.runTimeoutSeconds,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 3600)))
  static let quitGrace = Option(
    "--quit-grace", "S",
    "after a run the app gets S seconds to quit, then SIGTERM and S/3 more; an app that must be killed fails its run",
    default: defaults.quitGraceSeconds,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 600)))
  static let windowTimeout = Option(
    "--window-timeout", "S", "X11 and Wayland: a run whose app maps no window within S seconds fails",
    default: defaults.windowTimeoutSeconds,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 3600)))
  static let injectDelay = Option<Int?>(
    "--inject-delay-ms", "MS",
    "camera-app waits MS ms before preview (a regression to test gates; moves frames by whole intervals)",
    parser: .integer(in: 1...60_000))
  static let load = Option(
    "--load", "KIND",
    "loaded condition: cpu (spin) or memory (also stream over a buffer 2x the last-level cache); one burner per allowed CPU, within the cgroup quota",
    default: defaults.load, parser: .choice())
  static let lowPower = Option(
    "--low-power", "HOW",
    "low-power condition: auto (cpufreq where writable, else quota), cpufreq (governor, EPP, scaling_max_freq at half), or quota:FRACTION (each run's own cgroup gets FRACTION of one CPU's time; auto: 0.5)",
    default: defaults.lowPower,
    parser: ValueParser(
      parse: { (text, name) throws(UsageError) -> LowPowerRequest in
        guard let request = LowPowerRequest(parsing: text) else {
          throw UsageError("\(name) wants auto, cpufreq or quota:FRACTION (0 < FRACTION <= 1), not '\(text)'")
        }
        return request
      }, describe: { $0.description }))
  static let soakSeconds = Option(
    "--soak-seconds", "S", "hot condition: the soak of sustained load on every CPU before each launch",
    default: defaults.soakSeconds, parser: .number(in: NumberRange(atLeast: 0, atMost: 3600)))
  static let threadStates = Option(
    "--thread-states", "HOW",
    "each phase's thread states (running, runnable, io, sleeping): auto (tracefs where bench can use it, else sampled), on (tracefs or exit 2), sampled (/proc totals), off",
    default: defaults.threadStates, parser: .choice())
  static let noWait = Flag(
    "--no-wait",
    "when another bench holds the machine (a cpufreq cap, loaded's burners, hot's soak) and a condition here needs it: refuse at once with exit status 2 instead of waiting"
  )
  static let noTap = Flag("--no-tap", "do not press the shutter when the first live frame appears")
  static let noBoard = Flag(
    "--no-board", "the probe ignores the light board: change detection only (to check it with camera-app)")
  static let out = Option<String?>(
    "--out", "DIR", "results folder", shownAs: "Results/<UTC timestamp>, linked from Results/latest",
    parser: .folderName)
  static let format = Option(
    "--format", "FORMAT", "table, json, markdown or csv on stdout", default: Format.table, parser: .choice())
  static let quiet = Flag("--quiet", "no progress output")
  static let overwrite = Flag(
    "--overwrite", "write into a non-empty --out folder, replacing the results bench wrote there")

  /// The option table (docs/options.md, a contract).
  package static let spec = CommandLineSpec(
    command: "bench",
    synopsis: "[options]    (or: bench COMMAND … --help; the commands are listed below)",
    summary: """
      Launches the camera app again and again under cold, warm, relock and loaded conditions
      (and low-power and hot, when named),
      finds the first live preview frame from the display's pixels, and reports every launch
      phase's distribution per configuration, with a deferred-vs-eager verdict per condition.
      """,
    options: [
      runs, warmup, conditions, configs, outputs, camera, profile, app, appConfig, headlessAppConfig,
      appUser, preloadCameraApp, feedLightBoard, display,
      x11Read,
      refreshHz,
      lockSeconds, runTimeout, quitGrace, windowTimeout, load, lowPower, soakSeconds, threadStates,
      noWait, injectDelay, noTap, noBoard,
      out, overwrite, format, quiet,
    ],
    epilogue: """
      commands:
        bench compare A.json B.json              per phase: ratio of medians, 95% CI, p-value, verdict
        bench gate --baseline BASE.json RESULTS.json   exit 1 on a significant regression
        bench gate --gates Benchmarks/gates.json RESULTS.json
        bench baseline save RESULTS.json BASE.json
        bench report RESULTS.json [--svg F] [--trace F] [--markdown F] [--junit F]
        bench calibrate                          the probe against ground truth
        bench doctor                             devices, cache dropping, real-time priority, PSI
        bench launch-floor [NAME=PATH …]         camera-app's spawn → main against hello programs
        bench power RESULTS.json [--size]        the gate's false alarms, power and the runs it needs
        bench build-app                          build camera-app as bench runs it; print its path
        bench ab REV_A REV_B                     camera-app at two git revisions, interleaved, B vs A
        bench history record|show|detect         every benchmark remembered; change points in the series
        bench bisect GOOD BAD                    the first commit that made a cell slower, by bench ab probes
      exit status: 0 ok, 1 runs failed (or a gate failed), 2 bad usage or input, 130 interrupted
      """)

  /// Reads the command line into ``Options``: every value checked against its option, and the
  /// options that only apply together. Nothing here touches the machine; ``Options/prepare()``
  /// does, in the pipeline.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    if let extra = parsed.positional.first {
      throw UsageError("unknown command or argument '\(extra)' (see bench --help)")
    }
    var s = RunSettings()
    s.runs = try parsed.value(runs)
    s.warmup = try parsed.value(warmup)
    s.conditions = try parsed.value(conditions)
    s.configs = try parsed.value(configs)
    s.outputs = try parsed.value(outputs)
    if !s.outputs.contains(.preview) { s.outputs.insert(.preview, at: 0) }
    s.refreshHz = try parsed.value(refreshHz)
    s.display = try parsed.value(display)
    s.x11Read = try parsed.value(x11Read)
    if parsed.isGiven(x11Read) && !s.display.server.readsScreenOrWindow {
      throw UsageError("--x11-read applies to --display x11 or x11:NAME only")
    }
    s.lockSeconds = try parsed.value(lockSeconds)
    s.runTimeoutSeconds = try parsed.value(runTimeout)
    s.quitGraceSeconds = try parsed.value(quitGrace)
    s.windowTimeoutSeconds = try parsed.value(windowTimeout)
    if parsed.isGiven(windowTimeout) && !s.display.server.mapsWindows {
      throw UsageError("--window-timeout applies to --display x11 or x11:NAME only")
    }
    s.tap = !parsed.isSet(noTap)
    s.preloadCameraApp = parsed.isSet(preloadCameraApp)
    s.readsLightBoard = !parsed.isSet(noBoard)
    s.injectDelayMs = try parsed.value(injectDelay)
    s.load = try parsed.value(load)
    s.lowPower = try parsed.value(lowPower)
    s.soakSeconds = try parsed.value(soakSeconds)
    s.threadStates = try parsed.value(threadStates)
    s.waitsForMachine = !parsed.isSet(noWait)
    s.camera = try parsed.value(camera)
    s.appUserName = try parsed.value(appUser)
    return Options(
      settings: s, format: try parsed.value(format), quiet: parsed.isSet(quiet),
      overwrite: parsed.isSet(overwrite),
      profile: try parsed.value(profile), app: try parsed.value(app),
      feedLightBoard: try parsed.value(feedLightBoard),
      appConfigs: try parsed.values(appConfig) + parsed.values(headlessAppConfig),
      configsGiven: parsed.isGiven(configs),
      out: try parsed.value(out))
  }

  /// Runs the benchmark through the one pipeline (``BenchPipeline``): prepares what the options
  /// name, runs the session, writes the results folder and prints `format`. Returns the exit
  /// status (0 ok, 1 runs failed or results not written, 130 interrupted).
  /// - Throws: `UsageError` when what the options name cannot be used (a camera node, a profile,
  ///   an app, the results folder), or another bench holds the results folder or it is not empty.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    try BenchPipeline.run(options.prepare(), output: &output, errors: &errors).exitStatus
  }
}
