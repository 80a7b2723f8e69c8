#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Display
import Foundation
import LaunchContract
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
    "--warmup", "N", "uncounted runs per configuration before each condition", default: defaults.warmup,
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
  static let refreshHz = Option(
    "--refresh-hz", "N", "display refresh rate", default: defaults.refreshHz, parser: .refreshRate)
  static let lockSeconds = Option(
    "--lock-seconds", "S", "relock: how long the device stays locked", default: defaults.lockSeconds,
    parser: .number(in: NumberRange(atLeast: 0, atMost: 3600)))
  static let runTimeout = Option(
    "--run-timeout", "S", "a run with no live frame after S seconds fails",
    default: defaults.runTimeoutSeconds,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 3600)))
  static let noTap = Flag("--no-tap", "do not press the shutter when the first live frame appears")
  static let out = Option<String?>(
    "--out", "DIR", "results folder", shownAs: "Results/<UTC timestamp>, linked from Results/latest",
    parser: .folderName)
  static let format = Option(
    "--format", "FORMAT", "table, json, markdown or csv on stdout", default: Format.table, parser: .choice())
  static let quiet = Flag("--quiet", "no progress output")

  /// The option table (DESIGN.md "Command line", a contract).
  public static let spec = CommandLineSpec(
    command: "bench",
    synopsis: "[options]    (or: bench compare|gate|baseline|report|calibrate|doctor|ab … --help)",
    summary: """
      Launches the camera app again and again under cold, warm, relock and loaded conditions,
      finds the first live preview frame from the display's pixels, and reports every launch
      phase's distribution per configuration, with a deferred-vs-eager verdict per condition.
      """,
    options: [
      runs, warmup, conditions, configs, outputs, camera, profile, app, refreshHz, lockSeconds, runTimeout,
      noTap,
      out, format, quiet,
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
    s.lockSeconds = try o.value(lockSeconds)
    s.runTimeoutSeconds = try o.value(runTimeout)
    s.tap = !o.isSet(noTap)
    let outputFormat = try o.value(format)

    s.camera = try o.value(camera)
    if let path = s.camera.devicePath {
      do {
        try V4L2Camera.validate(path: path)
      } catch {
        throw UsageError("--camera \(s.camera): \(error)")
      }
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
    if let app = try o.value(app) {
      var argv = try CommandSplitter.split(app)
      guard let resolved = resolveExecutable(argv[0]) else {
        throw UsageError("--app: cannot find an executable named '\(argv[0])'")
      }
      guard isProgram(resolved) else {
        throw UsageError("--app: \(resolved) is not a program (neither an ELF executable nor a #! script)")
      }
      argv[0] = resolved
      s.appCommand = argv
    } else if let syntheticProfile {
      try checkReachable(syntheticProfile, settings: s)
    }
    s.outDir = try prepareOutDir(o.value(out))
    return Options(settings: s, format: outputFormat, quiet: o.isSet(quiet))
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

  /// Runs the benchmark: progress on stderr, the results in `settings.outDir`, the chosen format
  /// on `output`. Returns the exit status (0 ok, 1 runs failed, 130 interrupted).
  public static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) -> Int32 {
    let (settings, format, quiet) = (options.settings, options.format, options.quiet)
    let interrupted = InterruptFlag.install()
    // Surfaces left by a bench that was killed with SIGKILL (nothing else can leak them).
    _ = DisplaySurface.removeStale()
    let appBinary: String?
    if settings.appCommand == nil {
      do {
        appBinary = try CameraAppLocator.locate { line in
          if !quiet { errors.write("bench: \(line)\n") }
        }
      } catch {
        errors.write("bench: \(error.message)\n")
        return 1
      }
    } else {
      appBinary = nil
    }
    if interrupted.isSet { return 130 }

    let total = settings.conditions.count * settings.configs.count * (settings.runs + settings.warmup)
    let progress = ProgressReporter(total: total, quiet: quiet)
    let base = baseResults(settings)
    let runner: BenchRunner
    do {
      runner = try BenchRunner(settings: settings, appBinary: appBinary)
    } catch {
      errors.write("bench: \(error.message)\n")
      return 1
    }
    let session = BenchSession(
      settings: settings, runner: runner, progress: progress, base: base, interrupted: { interrupted.isSet })
    let results = session.run()
    return finish(
      results, settings: settings, format: format, quiet: quiet, problem: session.lastWriteProblem,
      output: &output, errors: &errors)
  }

  /// What results.json records before the first run: the tool, the host and the settings.
  static func baseResults(_ settings: RunSettings) -> BenchResults {
    BenchResults(
      tool: .init(version: FirstFrameVersion.current), host: HostProbe.current(),
      settings: .init(
        runs: settings.runs, warmup: settings.warmup, conditions: settings.conditions.map(\.rawValue),
        configs: settings.configs.map(\.rawValue), outputs: settings.outputs.map(\.rawValue),
        camera: settings.camera.description,
        profile: settings.profilePath,
        profileName: settings.profileName, app: settings.appCommand?.joined(separator: " "),
        refreshHz: settings.refreshHz, tap: settings.tap, lockSeconds: settings.lockSeconds,
        runTimeoutSeconds: settings.runTimeoutSeconds, startedAt: ISO8601DateFormatter().string(from: Date())),
      cells: [])
  }

  static func finish(
    _ results: BenchResults, settings: RunSettings, format: Format, quiet: Bool, problem: String?,
    output: inout some TextOutputStream, errors: inout some TextOutputStream
  )
    -> Int32
  {
    let dir = settings.outDir
    let extras: [(String, String)] = [("samples.csv", ResultsTable.csv(results))]
    for (name, text) in extras {
      try? Data(text.utf8).write(to: URL(fileURLWithPath: dir + "/" + name), options: .atomic)
    }
    var reportProblem: String?
    do {
      try ReportWriter.writeAll(results: results, folder: dir)
    } catch {
      reportProblem = "\(error)"
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
    if let problem = problem ?? reportProblem {
      errors.write("bench: results could not be written to \(dir): \(problem)\n")
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

/// Ctrl-C, SIGTERM and SIGHUP set a flag that the runner polls; it then stops the app and the
/// burners, keeps the finished runs, and says where they are.
public final class InterruptFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  private let handlers = Mutex<SignalHandlers?>(nil)

  /// Whether a signal arrived.
  public var isSet: Bool { flag.load(ordering: .relaxed) }

  /// Installs the handlers.
  public static func install() -> InterruptFlag {
    let f = InterruptFlag()
    signal(SIGPIPE, SIG_IGN)
    let handlers = SignalHandlers(signals: [SIGINT, SIGTERM, SIGHUP]) { @Sendable [f] sig in
      if f.flag.exchange(true, ordering: .relaxed) { return }
      FileHandle.standardError.write(Data("\nbench: stopping (signal \(sig)); finished runs are kept\n".utf8))
    }
    f.handlers.withLock { $0 = handlers }
    return f
  }
}
