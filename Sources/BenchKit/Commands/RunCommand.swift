#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Display
import Foundation
import LaunchContract
import Synchronization
import SyntheticCamera
import V4L2Camera

/// FirstFrame's version, recorded in results; baselines from another version are refused.
public enum FirstFrameVersion {
  /// The version string.
  public static let current = "0.1.0"
}

/// `bench` (the main job): launches the camera app under each condition and configuration and
/// reports per-phase distributions.
public enum RunCommand {
  /// The option table (DESIGN.md "Command line", a contract).
  public static let spec = CommandLineSpec(
    command: "bench",
    synopsis: "[options]    (or: bench compare|gate|baseline|report|calibrate|doctor … --help)",
    summary: """
      Launches the camera app again and again under cold, warm, relock and loaded conditions,
      finds the first live preview frame from the display's pixels, and reports every launch
      phase's distribution per configuration, with a deferred-vs-eager verdict per condition.
      """,
    options: [
      .value("--runs", "N", "counted runs per cell", default: "20"),
      .value("--warmup", "N", "uncounted runs per configuration before each condition", default: "1"),
      .value("--conditions", "LIST", "cold,warm,relock,loaded", default: "all four"),
      .value(
        "--configs", "LIST", "deferred,eager,manual,preview-only (alternated A B A B …)",
        default: "deferred,eager"),
      .value("--outputs", "LIST", "preview,photo,movie,analysis", default: "preview,photo,movie"),
      .value("--camera", "CAMERA", "synthetic or v4l2:/dev/videoN", default: "synthetic"),
      .value(
        "--profile", "FILE", "synthetic camera cost profile",
        default: "Benchmarks/profiles/default.json (built in)"),
      .value(
        "--app", "\"COMMAND ARGS\"",
        "benchmark another app (split into argv without a shell; {config}, {outputs}, {camera} are replaced)"),
      .value("--refresh-hz", "N", "display refresh rate", default: "60"),
      .value("--lock-seconds", "S", "relock: how long the device stays locked", default: "1"),
      .value("--run-timeout", "S", "a run with no live frame after S seconds fails", default: "10"),
      .flag("--no-tap", "do not press the shutter when the first live frame appears"),
      .value(
        "--out", "DIR", "results folder", default: "Results/<UTC timestamp>, linked from Results/latest"),
      .value("--format", "FORMAT", "table, json, markdown or csv on stdout", default: "table"),
      .flag("--quiet", "no progress output"),
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
      exit status: 0 ok, 1 runs failed (or a gate failed), 2 bad usage or input, 130 interrupted
      """)


  /// Parses and validates the command line into settings and the output format.
  public static func settings(from arguments: [String]) throws(UsageError) -> (RunSettings, String, Bool)? {
    let o = try spec.parse(arguments)
    if o.has("--help") { return nil }
    if let extra = o.positional.first {
      throw UsageError("unknown command or argument '\(extra)' (see bench --help)")
    }
    var s = RunSettings()
    s.runs = try o.int("--runs", default: 20, minimum: 1)
    s.warmup = try o.int("--warmup", default: 1, minimum: 0)
    s.conditions = try o.list(LaunchCondition.self, "--conditions", default: LaunchCondition.allCases)
    s.configs = try o.list(LaunchConfiguration.self, "--configs", default: LaunchConfiguration.mainJob)
    s.outputs = try o.list(
      CaptureOutputKind.self, "--outputs", allowed: CaptureOutputKind.selectable,
      default: CaptureOutputKind.defaultSelection)
    if !s.outputs.contains(.preview) { s.outputs.insert(.preview, at: 0) }
    s.refreshHz = try o.double("--refresh-hz", default: 60)
    guard s.refreshHz <= 1000 else { throw UsageError("--refresh-hz must be at most 1000") }
    s.lockSeconds = try o.double("--lock-seconds", default: 1, allowZero: true)
    s.runTimeoutSeconds = try o.double("--run-timeout", default: 10)
    s.tap = !o.has("--no-tap")
    let format = o.value("--format") ?? "table"
    guard ["table", "json", "markdown", "csv"].contains(format) else {
      throw UsageError("unknown format '\(format)' for --format (choose from table, json, markdown, csv)")
    }

    if let camera = o.value("--camera") {
      guard let selection = try? CameraSelection(parsing: camera) else {
        throw UsageError("unknown camera '\(camera)' for --camera (use synthetic or v4l2:/dev/videoN)")
      }
      if let path = selection.devicePath {
        do {
          try V4L2Camera.validate(path: path)
        } catch {
          throw UsageError("--camera \(camera): \(error)")
        }
      }
      s.camera = selection
    }
    if let profile = o.value("--profile") {
      guard s.camera == .synthetic else {
        throw UsageError("--profile applies to the synthetic camera only")
      }
      do {
        let loaded = try CostProfile.load(path: profile)
        s.profileName = loaded.name
      } catch {
        throw UsageError("\(error)")
      }
      s.profilePath =
        (profile as NSString).isAbsolutePath
        ? profile : FileManager.default.currentDirectoryPath + "/" + profile
    } else if s.camera == .synthetic {
      s.profileName = CostProfile.default.name
    }
    if let app = o.value("--app") {
      var argv = try CommandSplitter.split(app)
      guard let resolved = resolveExecutable(argv[0]) else {
        throw UsageError("--app: cannot find an executable named '\(argv[0])'")
      }
      argv[0] = resolved
      s.appCommand = argv
    }
    s.outDir = try prepareOutDir(o.value("--out"))
    return (s, format, o.has("--quiet"))
  }

  static func resolveExecutable(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 && !isDirectory(name) ? name : nil }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if access(candidate, X_OK) == 0 && !isDirectory(candidate) { return candidate }
    }
    return nil
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

  /// Runs the benchmark. Returns the exit status.
  public static func main(_ arguments: [String]) -> Int32 {
    let parsed: (RunSettings, String, Bool)?
    do {
      parsed = try settings(from: arguments)
    } catch {
      return usage(error)
    }
    guard let (settings, format, quiet) = parsed else {
      print(spec.help, terminator: "")
      return 0
    }
    let interrupted = InterruptFlag.install()
    // Surfaces left by a bench that was killed with SIGKILL (nothing else can leak them).
    _ = DisplaySurface.removeStale()
    let appBinary: String?
    if settings.appCommand == nil {
      do {
        appBinary = try CameraAppLocator.locate { line in
          if !quiet { FileHandle.standardError.write(Data("bench: \(line)\n".utf8)) }
        }
      } catch {
        FileHandle.standardError.write(Data("bench: \(error.message)\n".utf8))
        return 1
      }
    } else {
      appBinary = nil
    }
    if interrupted.isSet { return 130 }

    let total = settings.conditions.count * settings.configs.count * (settings.runs + settings.warmup)
    let progress = ProgressReporter(total: total, quiet: quiet)
    let base = BenchResults(
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
    let runner = BenchRunner(settings: settings, appBinary: appBinary)
    let session = BenchSession(
      settings: settings, runner: runner, progress: progress, base: base, interrupted: { interrupted.isSet })
    let results = session.run()
    return finish(
      results, settings: settings, format: format, quiet: quiet, problem: session.lastWriteProblem)
  }

  static func finish(
    _ results: BenchResults, settings: RunSettings, format: String, quiet: Bool, problem: String?
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
    case "json": print(String(decoding: (try? ResultsFile.encode(results)) ?? Data(), as: UTF8.self))
    case "csv": print(ResultsTable.csv(results), terminator: "")
    case "markdown": print(MarkdownReport.summary(results: results), terminator: "")
    default:
      print(ResultsTable.text(results), terminator: "")
      print("")
      for line in Comparator.headlines(results) { print(line) }
    }
    let failed = results.cells.reduce(0) { $0 + $1.failed }
    let finished = results.cells.reduce(0) { $0 + $1.records.count }
    if let problem = problem ?? reportProblem {
      FileHandle.standardError.write(Data("bench: results could not be written to \(dir): \(problem)\n".utf8))
      return 1
    }
    if results.settings.interrupted {
      FileHandle.standardError.write(
        Data("bench: interrupted; \(finished) finished runs kept in \(dir)\n".utf8))
      return 130
    }
    if !quiet { FileHandle.standardError.write(Data("bench: results in \(dir)\n".utf8)) }
    if failed > 0 {
      FileHandle.standardError.write(
        Data("bench: \(failed) of \(finished) runs failed (see results.json records)\n".utf8))
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

  static func usage(_ error: UsageError) -> Int32 {
    FileHandle.standardError.write(Data("bench: \(error.message)\n".utf8))
    return 2
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
