#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Display
import Foundation
import LaunchContract
import ResultsSchema
import Synchronization
import SyntheticCamera
import SystemCalls
import V4L2Camera

/// FirstFrame's version, recorded in results; baselines from another version are refused.
public enum FirstFrameVersion {
  /// The version string.
  public static let current = "0.1.0"
}

/// `bench` (the main job): launches the camera app under each condition and configuration and
/// reports per-phase distributions.
public enum RunCommand: Command {
  /// The command line, checked: the settings, the format on stdout and whether to show progress.
  public struct Options: Sendable {
    /// What to run.
    public var settings: RunSettings
    /// What goes to stdout at the end.
    public var format: Format
    /// No progress output.
    public var quiet: Bool
    /// Write into a results folder that is not empty, replacing bench's earlier files there.
    public var overwrite = false
  }

  /// `--format`: what goes to stdout when the benchmark ends.
  public enum Format: String, Sendable, CaseIterable {
    /// The per-cell table and the headlines.
    case table
    /// results.json.
    case json
    /// The Markdown summary.
    case markdown
    /// samples.csv.
    case csv
  }

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
    "--conditions", "LIST", "cold,warm,relock,loaded", default: defaults.conditions, shownAs: "all four",
    parser: .list())
  static let configs = Option(
    "--configs", "LIST", "deferred,eager,manual,preview-only (alternated A B A B …)",
    default: defaults.configs,
    parser: .list())
  static let outputs = Option(
    "--outputs", "LIST", "preview,photo,movie,analysis", default: defaults.outputs,
    parser: .list(of: CaptureOutputKind.selectable))
  static let camera = Option(
    "--camera", "CAMERA", "synthetic or v4l2:/dev/videoN", default: defaults.camera,
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
    "write the light board into the V4L2 output NODE that vivid loops into the camera (--camera v4l2:…)",
    parser: .text)
  static let appConfig = Option<AppConfiguration?>(
    "--app-config", "N=CMD",
    "a third-party app, a configuration named N that runs CMD (repeatable; {device} is the --camera v4l2 node); without --configs only these run",
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
  static let refreshHz = Option(
    "--refresh-hz", "N", "display refresh rate", default: defaults.refreshHz, parser: .refreshRate)
  static let display = Option(
    "--display", "DISPLAY", "shm, x11 (a private Xvfb) or x11:NAME (an existing X server, e.g. x11::0)",
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
    "--window-timeout", "S", "X11: a run whose app maps no window within S seconds fails",
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

  /// The option table (DESIGN.md "Command line", a contract).
  public static let spec = CommandLineSpec(
    command: "bench",
    synopsis: "[options]    (or: bench COMMAND … --help; the commands are listed below)",
    summary: """
      Launches the camera app again and again under cold, warm, relock and loaded conditions,
      finds the first live preview frame from the display's pixels, and reports every launch
      phase's distribution per configuration, with a deferred-vs-eager verdict per condition.
      """,
    options: [
      runs, warmup, conditions, configs, outputs, camera, profile, app, appConfig, headlessAppConfig,
      feedLightBoard, display,
      x11Read,
      refreshHz,
      lockSeconds, runTimeout, quitGrace, windowTimeout, load,
      injectDelay, noTap, noBoard,
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
        bench power RESULTS.json                 the gate's false alarms and power, from 40-run cells
        bench build-app                          build camera-app as bench runs it; print its path
        bench ab REV_A REV_B                     camera-app at two git revisions, interleaved, B vs A
      exit status: 0 ok, 1 runs failed (or a gate failed), 2 bad usage or input, 130 interrupted
      """)

  /// Checks the command line and prepares what it names: the camera, the profile, the app and
  /// the results folder (created here, so that an unwritable one is a usage error).
  public static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    if let extra = o.positional.first {
      throw UsageError("unknown command or argument '\(extra)' (see bench --help)")
    }
    var s = RunSettings()
    s.runs = try o.value(runs)
    s.warmup = try o.value(warmup)
    s.conditions = try o.value(conditions)
    s.configs = try o.value(configs)
    s.outputs = try o.value(outputs)
    if !s.outputs.contains(.preview) { s.outputs.insert(.preview, at: 0) }
    s.refreshHz = try o.value(refreshHz)
    s.display = try o.value(display)
    try BenchDisplay.validate(s.display)
    s.x11Read = try o.value(x11Read)
    if o.isGiven(x11Read) && !s.display.isX11 {
      throw UsageError("--x11-read applies to --display x11 or x11:NAME only")
    }
    s.lockSeconds = try o.value(lockSeconds)
    s.runTimeoutSeconds = try o.value(runTimeout)
    s.quitGraceSeconds = try o.value(quitGrace)
    s.windowTimeoutSeconds = try o.value(windowTimeout)
    if o.isGiven(windowTimeout) && !s.display.isX11 {
      throw UsageError("--window-timeout applies to --display x11 or x11:NAME only")
    }
    s.tap = !o.isSet(noTap)
    s.readsLightBoard = !o.isSet(noBoard)
    s.injectDelayMs = try o.value(injectDelay)
    s.load = try o.value(load)
    // Planned once, from bench's own affinity and cgroup quota: recorded as run.
    if s.conditions.contains(.loaded) { s.burnerPlan = BurnerPlan.current(kind: s.load) }
    let outputFormat = try o.value(format)

    s.camera = try o.value(camera)
    if let path = s.camera.devicePath {
      do {
        try V4L2Camera.validate(path: path)
      } catch {
        throw UsageError("--camera \(s.camera): \(error)")
      }
    }
    if let node = try o.value(feedLightBoard) {
      guard s.camera.devicePath != nil else {
        throw UsageError("--feed-light-board applies to a V4L2 camera (--camera v4l2:/dev/videoN) only")
      }
      do {
        _ = try V4L2VideoOutput(path: node)
      } catch {
        throw UsageError("--feed-light-board \(node): \(error)")
      }
      s.feedLightBoard = node
    }
    var syntheticProfile: CostProfile?
    if let profile = try o.value(profile) {
      guard s.camera == .synthetic else {
        throw UsageError("--profile applies to the synthetic camera only")
      }
      do {
        syntheticProfile = try CostProfile.load(path: profile)
        s.profileName = syntheticProfile?.name
      } catch {
        throw UsageError("\(error)")
      }
      s.profilePath =
        (profile as NSString).isAbsolutePath
        ? profile : FileManager.default.currentDirectoryPath + "/" + profile
    } else if s.camera == .synthetic {
      syntheticProfile = .default
      s.profileName = CostProfile.default.name
    }
    try takeAppConfigs(o, into: &s)
    if let app = try o.value(app) {
      guard !s.configs.isEmpty else {
        throw UsageError(
          "--app runs in the built-in configurations: with --app-config, name them with --configs (or give the app as --app-config NAME=COMMAND)"
        )
      }
      var argv = try CommandSplitter.split(app)
      if argv.contains(where: { $0.contains(AppConfiguration.devicePlaceholder) })
        && s.camera.devicePath == nil
      {
        throw UsageError("--app: {device} needs a V4L2 camera (--camera v4l2:/dev/videoN)")
      }
      guard let resolved = resolveExecutable(argv[0]) else {
        throw UsageError("--app: cannot find an executable named '\(argv[0])'")
      }
      guard isProgram(resolved) else {
        throw UsageError("--app: \(resolved) is not a program (neither an ELF executable nor a #! script)")
      }
      argv[0] = resolved
      s.appCommand = argv
      // The app command names its own camera and costs: no profile of ours describes it.
      guard s.profilePath == nil else {
        throw UsageError(
          "--profile applies to camera-app only; with --app, give the profile in the app's command")
      }
      s.profileName = nil
    } else if s.configs.isEmpty {
      // Only third-party apps: no profile of ours describes them.
      guard s.profilePath == nil else {
        throw UsageError("--profile applies to camera-app only; it does not run without --configs")
      }
      s.profileName = nil
    } else if let syntheticProfile {
      s.profileHash = ProfileFingerprint.hash(syntheticProfile)
      try checkReachable(syntheticProfile, settings: s)
    }
    s.outDir = try prepareOutDir(o.value(out))
    return Options(settings: s, format: outputFormat, quiet: o.isSet(quiet), overwrite: o.isSet(overwrite))
  }

  /// `--app-config NAME=COMMAND …`: the apps, their executables resolved on PATH, `{device}`
  /// checked against the camera, the preload library found and its reach judged per app. Without
  /// `--configs`, only the apps run.
  static func takeAppConfigs(_ o: ParsedOptions, into s: inout RunSettings) throws(UsageError) {
    var apps = try o.values(appConfig) + o.values(headlessAppConfig)
    guard !apps.isEmpty else { return }
    try AppConfiguration.validate(apps)
    if !o.isGiven(configs) { s.configs = [] }
    for i in apps.indices {
      let name = "\(apps[i].option) \(apps[i].name)"
      if apps[i].usesDevice && s.camera.devicePath == nil {
        throw UsageError("\(name): {device} needs a V4L2 camera (--camera v4l2:/dev/videoN)")
      }
      guard let resolved = resolveExecutable(apps[i].argv[0]) else {
        throw UsageError(
          "\(name): cannot find an executable named \(CommandSplitter.quoted(apps[i].argv[0]))")
      }
      guard isProgram(resolved) else {
        throw UsageError(
          "\(name): \(resolved) is not a program (neither an ELF executable nor a #! script)")
      }
      apps[i].argv[0] = resolved
    }
    s.appConfigs = apps
    do {
      s.preloadLibrary = try PreloadLibrary.locate()
    } catch {
      for app in apps {
        s.preloadReasons[app.name] = "the preload library is not available: \(error.message)"
      }
    }
    for app in apps where s.preloadLibrary != nil {
      if let reason = PreloadLibrary.coverage(ofExecutable: app.argv[0]).reason {
        s.preloadReasons[app.name] = "the preload library cannot see the app: \(reason)"
      }
    }
    // A headless run ends at the first buffer the preload library sees: without the library in
    // the program, no run could end but by its timeout.
    for app in apps where app.headless {
      if let reason = s.preloadReasons[app.name] {
        throw UsageError(
          "--headless-app-config \(app.name): its run ends at the first buffer the preload library sees, and \(reason)"
        )
      }
    }
  }

  static func resolveExecutable(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 && !isDirectory(name) ? name : nil }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 && !isDirectory(candidate) { return candidate }
    }
    return nil
  }

  /// Whether `path` starts as a program `posix_spawn` can run: an ELF executable (`\u{7F}ELF`) or
  /// a script naming its interpreter (`#!`). Anything else fails every spawn with `ENOEXEC`.
  static func isProgram(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var magic = [UInt8](repeating: 0, count: 4)
    let n = magic.withUnsafeMutableBytes { (try? FileDescriptorIO.read(fd, into: $0)) ?? 0 }
    return (n == 4 && magic == [0x7F, 0x45, 0x4C, 0x46]) || (n >= 2 && magic[0] == 0x23 && magic[1] == 0x21)
  }

  /// Refuses a synthetic camera profile with which every run of some configuration would time
  /// out: its nominal time to the first frame (the cheaper power-up, format, the outputs that
  /// configuration initialises before the stream, first-frame latency) is already beyond
  /// `--run-timeout`, before the app has even started. A loaded CPU only adds to it.
  static func checkReachable(_ profile: CostProfile, settings s: RunSettings) throws(UsageError) {
    for config in s.configs {
      let beforeStream: [CaptureOutputKind] =
        switch config {
        case .eager: config.outputs(from: s.outputs)
        case .manual: [.videoData]
        default: [.preview]
        }
      let ms = min(
        profile.nominalOpenToFirstFrameMs(initializing: beforeStream, warm: true),
        profile.nominalOpenToFirstFrameMs(initializing: beforeStream, warm: false))
      if ms >= s.runTimeoutSeconds * 1000 {
        let timeout = s.runTimeoutSeconds
        let seconds = timeout.rounded() == timeout ? String(Int(timeout)) : String(timeout)
        throw UsageError(
          "profile \(profile.name): \(config) needs at least \(Int(ms.rounded(.up))) ms to its first frame (power-up, format, \(beforeStream.map(\.rawValue).joined(separator: ", ")), first-frame latency), not within --run-timeout \(seconds) s: every run would time out; raise --run-timeout or lower the profile's costs"
        )
      }
    }
  }

  static func isDirectory(_ path: String) -> Bool {
    var isDir: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && isDir.boolValue
  }

  /// Creates the results folder (default `Results/<UTC timestamp>`) and checks it is writable.
  static func prepareOutDir(_ given: String?) throws(UsageError) -> String {
    let dir: String
    if let given {
      dir =
        (given as NSString).isAbsolutePath ? given : FileManager.default.currentDirectoryPath + "/" + given
    } else {
      let root = CameraAppLocator.packageRoot() ?? FileManager.default.currentDirectoryPath
      let f = DateFormatter()
      f.locale = Locale(identifier: "en_US_POSIX")
      f.timeZone = TimeZone(identifier: "UTC")
      f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
      dir = root + "/Results/" + f.string(from: Date())
    }
    do {
      try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
      throw UsageError("--out \(given ?? dir): cannot create the folder (\(reason(error)))")
    }
    let probe = dir + "/.write-test-\(getpid())"
    guard FileManager.default.createFile(atPath: probe, contents: Data("x".utf8)) else {
      throw UsageError("--out \(given ?? dir): the folder is not writable")
    }
    unlink(probe)
    return dir
  }

  static func reason(_ error: any Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return ns.localizedDescription
  }

  /// Runs the benchmark: progress on stderr, the runs in the results folder's journal as they
  /// finish, the results in `settings.outDir` at the end, the chosen format on `output`. Returns
  /// the exit status (0 ok, 1 runs failed or results not written, 130 interrupted).
  /// - Throws: `UsageError` when another bench holds the results folder or it is not empty.
  public static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let (settings, format, quiet) = (options.settings, options.format, options.quiet)
    let interrupted = InterruptFlag.install()
    let guardProcess = startGuard(errors: &errors)
    let folder = try ResultsFolder.claim(settings.outDir, overwrite: options.overwrite) { line in
      errors.write(line + "\n")
    }
    // Surfaces left by a bench that was killed with SIGKILL (nothing else can leak them).
    _ = DisplaySurface.removeStale()
    let appBinary: String?
    if settings.appCommand == nil && !settings.configs.isEmpty {
      do {
        appBinary = try CameraAppLocator.locate(interrupted: { interrupted.isSet }) { line in
          if !quiet { errors.write("bench: \(line)\n") }
        }
      } catch {
        if error.code == .interrupted { return 130 }
        errors.write("bench: \(error.message)\n")
        return 1
      }
    } else {
      appBinary = nil
    }
    if interrupted.isSet { return 130 }

    guard let display = openDisplay(settings, quiet: quiet, errors: &errors) else { return 1 }
    defer { display.stop() }

    let cellsRun = settings.conditions.reduce(0) { sum, condition in
      sum + settings.benchConfigurations.filter { settings.notRunReason(for: $0, in: condition) == nil }.count
    }
    let total = cellsRun * (settings.runs + settings.warmup) + settings.primedCells.count
    let progress = ProgressReporter(total: total, quiet: quiet)
    let base = baseResults(settings, display: display)
    let journal: RunJournal
    do {
      journal = try RunJournal(folder: folder.path, base: base)
    } catch {
      errors.write("bench: \(error)\n")
      return 1
    }
    let runner: BenchRunner
    do {
      runner = try BenchRunner(settings: settings, appBinary: appBinary, display: display)
    } catch {
      errors.write("bench: \(error.message)\n")
      return 1
    }
    if let guardProcess {
      guardProcess.removeOnExit(runner.stateDirectory)
      guardProcess.removeOnExit(in: "/dev/shm", namesStartingWith: DisplaySurface.namePrefix + "\(getpid())-")
    }
    // A display that is gone (Xvfb exited) stops the benchmark as Ctrl-C does; the run in
    // flight fails with the reason (BenchRunner.displayFailure).
    let session = BenchSession(
      settings: settings, runner: runner, progress: progress, base: base, journal: journal,
      interrupted: { interrupted.isSet || display.failure != nil })
    let feed = LightBoardFeed.start(settings: settings, follows: runner.feedFollows) { line in
      errors.write("bench: \(line)\n")
    }
    if let feed { runner.feedPriming.attach(feed.feeder) }
    var results = session.run()
    results.settings.lightBoardFeed = feed?.stop()
    if feed != nil {
      let counts = runner.feedPriming.counts
      results.settings.lightBoardFeed?.primedRuns = counts.primed
      results.settings.lightBoardFeed?.primingFailed = counts.failed
    }
    if let info = results.settings.lightBoardFeed, let line = LightBoardFeed.lateWarning(info) {
      errors.write("bench: \(line)\n")
    }
    return finish(
      results, folder: folder, journal: journal, format: format, quiet: quiet,
      displayFailure: display.failure, output: &output, errors: &errors)
  }

  /// Starts the process guard: every child bench starts dies with it, even after SIGKILL (see
  /// ``ProcessGuard``). Nil (said on `errors`) when it cannot be started.
  static func startGuard(errors: inout some TextOutputStream) -> ProcessGuard? {
    do {
      return try ProcessGuard.start()
    } catch {
      errors.write("bench: \(error.message); an app may outlive bench if bench is killed\n")
      return nil
    }
  }

  /// The display `settings.display` names, set up for the whole benchmark (a private Xvfb logs
  /// to `xvfb.log` in `settings.outDir`); nil, said on `errors`, when it cannot be.
  static func openDisplay(_ settings: RunSettings, quiet: Bool, errors: inout some TextOutputStream)
    -> BenchDisplay?
  {
    let display: BenchDisplay
    do {
      display = try BenchDisplay.open(
        settings.display, width: settings.displayWidth, height: settings.displayHeight,
        logPath: settings.display == .privateX11 ? settings.outDir + "/xvfb.log" : nil)
    } catch {
      errors.write("bench: \(error.message)\n")
      return nil
    }
    if let server = display.serverInfo, !quiet {
      errors.write("bench: display \(settings.display): X server \(server.name) (\(server.vendor))\n")
    }
    return display
  }

  /// What results.json records before the first run: the tool, the host, the settings and
  /// the display the runs are shown on.
  static func baseResults(_ settings: RunSettings, display: BenchDisplay) -> BenchResults {
    var base = BenchResults(
      tool: .init(version: FirstFrameVersion.current), host: HostProbe.current(),
      settings: .init(
        runs: settings.runs, warmup: settings.warmup, conditions: settings.conditions.map(\.rawValue),
        configs: settings.benchConfigurations.map(\.name), outputs: settings.outputs.map(\.rawValue),
        camera: settings.camera.description,
        profile: settings.profilePath,
        profileName: settings.profileName, app: settings.appCommand?.joined(separator: " "),
        refreshHz: settings.refreshHz, tap: settings.tap, lockSeconds: settings.lockSeconds,
        runTimeoutSeconds: settings.runTimeoutSeconds, startedAt: ISO8601DateFormatter().string(from: Date()),
        display: settings.display.description,
        displayServer: display.serverInfo.map {
          var info = $0
          info.probeReads = settings.x11Read.rawValue
          return info
        }),
      cells: [])
    base.settings.profileHash = settings.profileHash
    base.settings.injectDelayMs = settings.injectDelayMs
    if !settings.readsLightBoard { base.settings.lightBoard = false }
    base.settings.load = settings.burnerPlan?.info
    base.settings.primedCells = settings.primedCells.isEmpty ? nil : settings.primedCells
    record(apps: settings, in: &base.settings)
    return base
  }

  /// Records the third-party apps, the cells that cannot apply to them, and the window timeout.
  static func record(apps settings: RunSettings, in recorded: inout BenchResults.BenchSettings) {
    if !settings.appConfigs.isEmpty {
      recorded.appConfigs = Dictionary(
        uniqueKeysWithValues: settings.appConfigs.map { ($0.name, $0.command) })
    }
    let headless = settings.appConfigs.filter(\.headless).map(\.name)
    recorded.headlessAppConfigs = headless.isEmpty ? nil : headless
    var notRun: [String: String] = [:]
    for condition in settings.conditions {
      for config in settings.benchConfigurations {
        if let reason = settings.notRunReason(for: config, in: condition) {
          notRun["\(condition.rawValue)/\(config.name)"] = reason
        }
      }
    }
    recorded.notRun = notRun.isEmpty ? nil : notRun
    if settings.display.isX11 { recorded.windowTimeoutSeconds = settings.windowTimeoutSeconds }
  }

  /// Writes the final results (results.json, samples.csv, the reports), ends the journal when
  /// results.json is written, prints `format` and the closing lines. Every file that could not be
  /// written is named with its errno; the journal keeps the runs for `bench report` then.
  static func finish(
    _ results: BenchResults, folder: ResultsFolder, journal: RunJournal, format: Format, quiet: Bool,
    displayFailure: String? = nil, output: inout some TextOutputStream, errors: inout some TextOutputStream
  )
    -> Int32
  {
    let dir = folder.path
    var problems: [String] = []
    var resultsWritten = false
    do {
      try ResultsFile.save(results, to: folder.resultsPath)
      resultsWritten = true
    } catch {
      problems.append("\(error)")
    }
    do {
      try ReportWriter.write(ResultsTable.csv(results), to: dir + "/samples.csv")
    } catch {
      problems.append("\(error)")
    }
    do {
      try ReportWriter.writeAll(results: results, folder: dir)
    } catch {
      problems.append("\(error)")
    }
    if resultsWritten {
      do {
        try journal.end(interrupted: results.settings.interrupted)
      } catch {
        problems.append("\(error)")
      }
    }
    linkLatest(dir)
    switch format {
    case .json:
      output.write(String(decoding: (try? ResultsFile.encode(results)) ?? Data(), as: UTF8.self) + "\n")
    case .csv: output.write(ResultsTable.csv(results))
    case .markdown: output.write(MarkdownReport.summary(results: results))
    case .table:
      output.write(ResultsTable.text(results))
      output.write("\n")
      for line in Comparator.headlines(results) { output.write(line + "\n") }
    }
    let failed = results.cells.reduce(0) { $0 + $1.failed }
    let finished = results.cells.reduce(0) { $0 + $1.records.count }
    if !problems.isEmpty {
      for problem in problems { errors.write("bench: cannot write \(problem)\n") }
      let unsaved = journal.unsavedRuns
      let kept =
        if resultsWritten {
          "results.json holds the \(finished) finished runs"
        } else if unsaved == 0 {
          "the journal \(journal.path) keeps the \(finished) finished runs (bench report \(dir) rebuilds results.json)"
        } else {
          "\(unsaved) of the \(finished) finished runs are not on the disk: they are only in this output (--format json keeps them all)"
        }
      errors.write("bench: results could not be written to \(dir); \(kept)\n")
      return 1
    }
    if let displayFailure {
      errors.write("bench: stopped: \(displayFailure); \(finished) finished runs kept in \(dir)\n")
      return 1
    }
    if results.settings.interrupted {
      errors.write("bench: interrupted; \(finished) finished runs kept in \(dir)\n")
      return 130
    }
    if !quiet { errors.write("bench: results in \(dir)\n") }
    if failed > 0 {
      errors.write("bench: \(failed) of \(finished) runs failed (see results.json records)\n")
      return 1
    }
    return 0
  }

  /// Points `Results/latest` at `dir` when `dir` is inside a `Results` folder.
  static func linkLatest(_ dir: String) {
    let parent = (dir as NSString).deletingLastPathComponent
    guard (parent as NSString).lastPathComponent == "Results" else { return }
    let link = parent + "/latest"
    let tmp = parent + "/.latest-\(getpid())"
    unlink(tmp)
    guard symlink((dir as NSString).lastPathComponent, tmp) == 0 else { return }
    rename(tmp, link)
  }

}
