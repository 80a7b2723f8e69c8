#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Display
import Foundation
import LaunchContract
import ResultsSchema
import SystemCalls

/// `bench ab REV_A REV_B`: code against code on one machine in one run. Builds camera-app at
/// two git revisions (``RevisionBuilder``) and runs both, interleaved run by run
/// (``ABSession``), into one results folder: `A/results.json` and `B/results.json` are ordinary
/// results files with the same cells, so `bench compare` and `bench gate --baseline` read
/// "B vs A" for every configuration and condition.
public enum ABCommand: Command {
  /// The command line, checked.
  public struct Options: Sendable {
    /// The reference revision.
    public var a: Revision
    /// The new revision.
    public var b: Revision
    /// The git repository the revisions are in.
    public var repository: String
    /// What to run (`outDir` is the folder that gets `A/` and `B/`).
    public var settings: RunSettings
    /// No progress output.
    public var quiet: Bool
    /// Write into `A/` and `B/` folders that are not empty, replacing bench's earlier files there.
    public var overwrite = false
  }

  static let repo = Option<String?>(
    "--repo", "DIR", "the FirstFrame git repository to build the revisions from", shownAs: "this package",
    parser: .folderName)

  // `bench`'s --out, read by `bench`'s parser; the folder gets A/ and B/ and is not Results/latest.
  static let out = Option<String?>(
    "--out", "DIR", "results folder (A/, B/, comparison.txt)", shownAs: "Results/<UTC timestamp>",
    parser: .folderName)

  /// The options `bench ab` shares with `bench`: all but `--app` (the revisions name the app),
  /// `--inject-delay-ms` (it would delay both sides alike) and `--format`.
  static let shared: [any CommandLineOption] = [
    RunCommand.runs, RunCommand.warmup, RunCommand.conditions, RunCommand.configs, RunCommand.outputs,
    RunCommand.camera, RunCommand.profile, RunCommand.display, RunCommand.x11Read, RunCommand.refreshHz,
    RunCommand.lockSeconds, RunCommand.runTimeout, RunCommand.noTap, out, RunCommand.overwrite,
    RunCommand.quiet,
  ]

  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench ab", synopsis: "REV_A REV_B [options]",
    summary: """
      Measures two revisions of camera-app against each other on this machine, in one run: builds
      camera-app at each git revision (release, as bench builds it; in a worktree under
      .build/ab, one cached binary per commit), then runs both under every condition and
      configuration, interleaved run by run (A B, then B A, …) so that machine drift hits both
      alike. The results folder holds A/results.json and B/results.json (ordinary results, same
      cells) and comparison.txt; gate B against A with
      bench gate --baseline OUT/A/results.json OUT/B/results.json.
      """,
    options: [repo] + shared,
    epilogue: """
      REV_A is the reference, REV_B the new one: any git revision (HEAD~1, origin/main, v0.1.0, a hash).
      exit status: 0 ok, 1 a build or runs failed, 2 bad usage (an unknown revision, one without
      camera-app, HEAD with uncommitted changes), 130 interrupted
      """)

  /// Checks the command line: two revisions that have camera-app, then `bench`'s options.
  public static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    guard o.positional.count == 2 else {
      throw UsageError("wants two git revisions, REV_A and REV_B (got \(o.positional.count) arguments)")
    }
    guard var repository = try o.value(repo) ?? CameraAppLocator.packageRoot() else {
      throw UsageError("cannot find the FirstFrame package: run bench ab inside it, or give --repo DIR")
    }
    if !(repository as NSString).isAbsolutePath {
      repository = FileManager.default.currentDirectoryPath + "/" + repository
    }
    let builder = RevisionBuilder(repository: repository)
    let a = try builder.resolve(o.positional[0])
    let b = try builder.resolve(o.positional[1])
    // `bench`'s own checks of the shared options (camera, profile, results folder), without the revisions.
    let rest = try RunCommand.spec.parse(
      o.values.filter { $0.key != repo.name }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        + o.flags.sorted())
    let run = try RunCommand.options(from: rest)
    return Options(
      a: a, b: b, repository: repository, settings: run.settings, quiet: run.quiet, overwrite: run.overwrite)
  }

  /// Builds both revisions, runs them interleaved, writes both results and the comparison, and
  /// prints the comparison table.
  /// - Throws: `UsageError` when `A/` or `B/` is held by another bench or holds results.
  public static func execute(
    _ o: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let interrupted = InterruptFlag.install()
    let guardProcess = RunCommand.startGuard(errors: &errors)
    // The results folders first: one in use or holding results is refused before anything is built.
    var folders: [ABSide: ResultsFolder] = [:]
    for side in ABSide.allCases {
      let path = o.settings.outDir + "/" + side.rawValue
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
      } catch {
        throw UsageError(
          "--out \(o.settings.outDir): cannot create \(side.rawValue)/ (\(RunCommand.reason(error)))")
      }
      folders[side] = try ResultsFolder.claim(path, overwrite: o.overwrite) { errors.write($0 + "\n") }
    }
    _ = DisplaySurface.removeStale()
    guard let binaries = build(o, interrupted: interrupted, errors: &errors) else {
      return interrupted.isSet ? 130 : 1
    }
    guard let display = RunCommand.openDisplay(o.settings, quiet: o.quiet, errors: &errors) else { return 1 }
    defer { display.stop() }
    // A display that is gone (Xvfb exited) stops the benchmark as Ctrl-C does.
    let stop: @Sendable () -> Bool = { interrupted.isSet || display.failure != nil }
    let rounds = o.settings.warmup + o.settings.runs
    let progress = ProgressReporter(
      total: 2
        * (o.settings.conditions.count * o.settings.configs.count * rounds + o.settings.primedCells.count),
      quiet: o.quiet)
    // Both revisions run on the one camera, interleaved: its power state is shared, so a warm
    // run follows the last run of either side, as on a real device.
    let device: String
    do {
      device = try PrivateDirectory.makeTemporary(prefix: "firstframe-device-")
    } catch {
      errors.write("bench: cannot make the camera's state folder: \(error.message)\n")
      return 1
    }
    guardProcess?.removeOnExit(device)
    defer { try? FileManager.default.removeItem(atPath: device) }
    var sessions: [ABSide: BenchSession] = [:]
    var journals: [ABSide: RunJournal] = [:]
    for side in ABSide.allCases {
      guard let folder = folders[side] else { return 1 }
      var settings = o.settings
      settings.outDir = folder.path
      let base = RunCommand.baseResults(settings, display: display)
      let journal: RunJournal
      let runner: BenchRunner
      do {
        journal = try RunJournal(folder: folder.path, base: base)
      } catch {
        errors.write("bench: \(error)\n")
        return 1
      }
      do {
        runner = try BenchRunner(
          settings: settings, appBinary: binaries[side], display: display, deviceStateDirectory: device)
      } catch {
        errors.write("bench: \(error.message)\n")
        return 1
      }
      guardProcess?.removeOnExit(runner.stateDirectory)
      journals[side] = journal
      sessions[side] = BenchSession(
        settings: settings, runner: runner, progress: progress, base: base, journal: journal,
        label: side.rawValue, interrupted: stop)
    }
    guardProcess?.removeOnExit(in: "/dev/shm", namesStartingWith: DisplaySurface.namePrefix + "\(getpid())-")
    try? Data(revisionsJSON(o).utf8).write(
      to: URL(fileURLWithPath: o.settings.outDir + "/revisions.json"), options: .atomic)
    let results = ABSession(settings: o.settings, sides: sessions, progress: progress, interrupted: stop)
      .run()
    // Each side's final results, written as bench writes them (results.json, reports, the
    // journal's end line); the closing lines name the side's folder.
    var status: Int32 = 0
    var discard = ""
    for side in ABSide.allCases {
      guard let r = results[side], let folder = folders[side], let journal = journals[side] else { continue }
      let s = RunCommand.finish(
        r, folder: folder, journal: journal, format: .table, quiet: true, displayFailure: display.failure,
        output: &discard, errors: &errors)
      status = status == 130 || s == 130 ? 130 : max(status, s)
    }
    guard let a = results[.a], let b = results[.b] else { return 1 }
    let table = comparison(a: a, b: b, options: o)
    try? Data(table.utf8).write(
      to: URL(fileURLWithPath: o.settings.outDir + "/comparison.txt"), options: .atomic)
    output.write(table)
    if !o.quiet {
      errors.write(
        "bench: results in \(o.settings.outDir) (A/results.json, B/results.json, comparison.txt)\n")
    }
    return status
  }

  /// camera-app at both revisions (``RevisionBuilder``), or nil when a build failed or was
  /// interrupted (said on `errors`).
  static func build(
    _ o: Options, interrupted: InterruptFlag, errors: inout some TextOutputStream
  ) -> [ABSide: String]? {
    // HEAD may come from this checkout's own camera-app build only when that is the repository
    // being compared and bench would build it (not FIRSTFRAME_CAMERA_APP's binary).
    let root = CameraAppLocator.packageRoot().map { FileSystem.realPath($0) ?? $0 }
    let builder = RevisionBuilder(
      repository: o.repository,
      reuseCheckout: root == (FileSystem.realPath(o.repository) ?? o.repository)
        && LaunchEnvironment.value(of: .cameraApp) == nil)
    var binaries: [ABSide: String] = [:]
    for (side, revision) in [(ABSide.a, o.a), (.b, o.b)] {
      do {
        binaries[side] = try builder.binary(for: revision, interrupted: { interrupted.isSet }) { line in
          if !o.quiet { errors.write("bench: \(side.rawValue): \(line)\n") }
        }
      } catch {
        if error.code == .interrupted || interrupted.isSet {
          errors.write("bench: interrupted while building; nothing was measured\n")
          return nil
        }
        errors.write("bench: \(side.rawValue) = \(revision.name): \(error.message)\n")
        return nil
      }
    }
    return binaries
  }

  /// The comparison B vs A, headed by what A and B are.
  static func comparison(a: BenchResults, b: BenchResults, options o: Options) -> String {
    let dir = o.settings.outDir
    var text = "A = \(o.a.name) (\(o.a.shortCommit))   B = \(o.b.name) (\(o.b.shortCommit))\n"
    text += ComparisonTable.text(
      Comparator.compare(a, b), a: dir + "/A/results.json", b: dir + "/B/results.json", options: .init())
    text += "gate: bench gate --baseline \(dir)/A/results.json \(dir)/B/results.json\n"
    return text
  }

  /// `revisions.json`: what A and B are.
  static func revisionsJSON(_ o: Options) -> String {
    let object: [String: [String: String]] = [
      "A": ["revision": o.a.name, "commit": o.a.commit],
      "B": ["revision": o.b.name, "commit": o.b.commit],
    ]
    let data =
      (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }
}
