import AppBuilds
import BenchCommands
import BenchHistory
import BenchKit
import Foundation
import Glibc
import HistoryAnalysis
import LaunchContract
import ResultsSchema
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// A scratch repository for `bench bisect`: GOOD, then one commit per entry of `versions`, each
/// setting `Sources/camera-app/main.swift` to that text. Every commit has camera-app and the
/// fast default profile (``ScratchRepository/fastProfile(named:)``).
struct BisectRepository {
  let repo: ScratchRepository
  /// Every commit, GOOD first.
  let commits: [String]

  static func make(_ versions: [String]) throws -> BisectRepository {
    let repo = ScratchRepository()
    try repo.git("init", "--quiet")
    try repo.write(
      "Package.swift",
      "let package = Package(name: \"FirstFrame\", products: [.executable(name: \"camera-app\")])\n")
    try repo.write(RevisionBuilder.defaultProfilePath, try ScratchRepository.fastProfile())
    try repo.write("Sources/camera-app/main.swift", "good\n")
    try repo.git("add", "-A")
    try repo.git("commit", "--quiet", "-m", "good")
    var commits = [try repo.git("rev-parse", "HEAD")]
    for (index, text) in versions.enumerated() {
      try repo.write("Sources/camera-app/main.swift", text + "\n")
      try repo.git("commit", "--quiet", "-am", "commit \(index + 1): \(text)")
      commits.append(try repo.git("rev-parse", "HEAD"))
    }
    return BisectRepository(repo: repo, commits: commits)
  }

  /// Puts a script where the builder keeps each commit's built camera-app, GOOD's too, so that
  /// nothing is compiled: `script(folder)` is its text, given the folder it goes in.
  func placeBinaries(_ script: (String) -> String) throws {
    for commit in commits {
      let folder = (RevisionBuilder(repository: repo.path).cachedBinary(commit) as NSString)
        .deletingLastPathComponent
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      makeScript(folder + "/camera-app", script(folder))
    }
  }

  /// The first frame's planted delay (ms): far beyond the noise of a few debug-build runs on a
  /// loaded machine (see ABEndToEndTests), stretched under a sanitizer.
  static let delayMs = TestTime.scale > 1 ? 12_000 : 3000

  /// camera-app as a commit would build it: the built camera-app, held back by ``delayMs``
  /// before its first frame when the commit's source says `slow`, else by `baseMs` (0: not at
  /// all); each start's pid goes to `pids`.
  static func wrapper(slow: Bool, pids: String, baseMs: Int = 0) -> String {
    let ms = slow ? delayMs : baseMs
    let delay = ms > 0 ? "FIRSTFRAME_INJECT_DELAY_MS=\(ms) " : ""
    return "#!/bin/sh\necho $$ >> '\(pids)'\n\(delay)exec '\(BuiltProducts.path("camera-app"))' \"$@\"\n"
  }

  /// A profile both sides run: the fast one with a warm window of 120 s, since the planted
  /// delay comes before the device opens (as in ABEndToEndTests).
  static func profile(in folder: String) throws -> String {
    let path = folder + "/profile.json"
    try ScratchRepository.fastProfile()
      .replacingOccurrences(of: "\"warm_window_ms\": 10000", with: "\"warm_window_ms\": 120000")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}

/// `bench bisect` on scratch repositories, with real camera-app runs.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ScratchRepository.gitAvailable, ScratchRepository.noGit))
struct BisectCommandTests {
  /// The options every run here shares: few runs (6 per side reach p < 0.01 when every run of
  /// one side is slower), the fast profile, warm/deferred.
  /// `runs` and `maxRuns`: where nothing differs, a loaded machine's noise leaves a probe
  /// inconclusive until more runs settle it.
  /// bisect's options for `repo`. `threshold` is what "slower" means: the planted commit is tens of
  /// times slower, and in a CI rehearsal's full suite a healthy commit read 1.159 (95 % CI
  /// 0.48–2.17) with 6 runs per side and stayed inconclusive at 5 %; slower-than-3× tells the two
  /// apart under any load this machine has seen.
  func arguments(
    _ repo: BisectRepository, out: String, db: String, profile: String, runs: Int = 6, maxRuns: Int = 24,
    threshold: Double = 2
  ) -> [String] {
    [
      "--repo", repo.repo.path, repo.commits[0], "HEAD", "--runs", "\(runs)", "--max-runs", "\(maxRuns)",
      "--threshold", "\(threshold)", "--warmup", "1",
      "--run-timeout", "\(15 * TestTime.scale)", "--profile", profile, "--out", out, "--db", db, "--quiet",
    ]
  }

  @Test(
    "names the planted slow commit among eight, skipping one that does not build, and records every probe")
  func findsPlantedCommit() throws {
    // Index (after GOOD): 0 one, 1 two SLOW (the culprit), 2 three, 3 broken (does not build), 4…7.
    let versions = [
      "one", "two slow", "three slow", "four slow broken", "five slow", "six slow", "seven slow",
      "eight slow",
    ]
    let repo = try BisectRepository.make(versions)
    let dir = temporaryFolder("bisect")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(dir, 0o777)
    let pids = dir + "/pids"
    let built = PThreadMutex<[String]>([])
    let build: RevisionBuilder.BuildStep = { (source, scratch, _) throws(RunnerError) in
      let main =
        (try? String(contentsOfFile: source + "/Sources/camera-app/main.swift", encoding: .utf8)) ?? ""
      built.withLock { $0.append(main.trimmingCharacters(in: .whitespacesAndNewlines)) }
      if main.contains("broken") { throw RunnerError(.buildFailed, "error: planted build failure") }
      try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
      makeScript(scratch + "/camera-app", BisectRepository.wrapper(slow: main.contains("slow"), pids: pids))
      return scratch + "/camera-app"
    }
    let options = try #require(
      try BisectCommand.parse(
        arguments(
          repo, out: dir + "/out", db: dir + "/history.sqlite", profile: try BisectRepository.profile(in: dir)
        )))
    var output = ""
    var errors = ""
    let status = try Bisection.prepare(options, build: build).run(output: &output, errors: &errors)
    #expect(status == 0, "\(output)\(errors)")
    #expect(output.contains("culprit: \(repo.commits[2]) commit 2: two slow"), "\(output)")
    #expect(output.contains("shift: +"), "\(output)")
    // The broken commit was tried, skipped, and the search went on around it.
    #expect(output.contains("\(repo.commits[4].prefix(12)) untestable"), "\(output)")
    // GOOD and each commit probed built once; at most ⌈log₂ 9⌉ = 4 probes, plus the skipped one.
    let names = built.withLock { $0 }
    #expect(Set(names).count == names.count && names.first == "good" && names.count <= 6, "\(names)")
    #expect(output.contains("builds: \(names.count) compiled"), "\(output)")
    let record =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/out/bisect.json")))
      as? [String: Any]
    #expect(record?["outcome"] as? String == "culprit")
    // Every measured probe's two sides are in the history, each under its own commit.
    let store = try SQLiteHistoryStore(path: dir + "/history.sqlite", readOnly: true)
    let recorded = try store.benchmarks(HistoryQuery(branch: HistoryQuery.bisectBranch))
    let measured = ((record?["probes"] as? [[String: Any]]) ?? []).filter {
      $0["verdict"] as? String != "untestable"
    }
    #expect(recorded.count == 2 * measured.count && !measured.isEmpty)
    #expect(
      Set(recorded.map(\.commit)) == Set(measured.compactMap { $0["commit"] as? String } + [repo.commits[0]]))
  }

  @Test("where nothing regressed, bench bisect says so and exits 1, having measured BAD")
  func nothingRegressed() throws {
    // Every commit's camera-app, GOOD's too, waits the same 1 s before its first frame: the fast
    // profile's 40–135 ms first frames at load 10 once read identical camera-apps 1.9× apart with
    // p = 0.0087 in 6 runs per side (a false "slower"; the default profile's ≈ 450 ms took over
    // 5 min at load 20); a second of sleep, which load does not stretch, puts that spread well
    // inside the gate's 5 % threshold, so each probe reads "not slower".
    let repo = try BisectRepository.make(["one", "two", "three", "four", "five", "six"])
    let dir = temporaryFolder("bisect-flat")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // Each commit's camera-app put where the builder keeps built ones: nothing is compiled.
    try repo.placeBinaries { _ in BisectRepository.wrapper(slow: false, pids: dir + "/pids", baseMs: 1000) }
    let run = try #require(
      try BenchInvocation.run(
        ["bisect"]
          + arguments(
            repo, out: dir + "/out", db: dir + "/h.sqlite", profile: try BisectRepository.profile(in: dir),
            maxRuns: 24),
        environment: [LaunchEnvironment.Key.cameraApp.rawValue: nil], timeout: .seconds(480)))
    #expect(run.status == 1, "\(run.output)\(run.errors)")
    #expect(
      run.output.contains("nothing regressed: BAD \(repo.commits[6].prefix(12)) is not slower than GOOD"),
      "\(run.output)")
    #expect(run.output.contains("builds: 0 compiled"), "\(run.output)")
    #expect(run.output.contains("\(repo.commits[6].prefix(12)) not-slower"), "\(run.output)")
  }

  @Test("Ctrl-C stops the probe in flight, leaves no camera-app behind, keeps the finished probes; exit 130")
  func interrupt() throws {
    let repo = try BisectRepository.make(["one", "two", "three", "four", "five", "six"])
    let dir = temporaryFolder("bisect-int")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    // The app runs as nobody when the tests run as root (--app-user): it writes here.
    chmod(dir, 0o777)
    let pids = dir + "/pids"
    try repo.placeBinaries { _ in BisectRepository.wrapper(slow: false, pids: pids, baseMs: 1000) }
    let out = dir + "/out"
    let bench = try BenchInvocation.start(
      ["bisect"]
        + arguments(
          repo, out: out, db: dir + "/h.sqlite", profile: try BisectRepository.profile(in: dir), maxRuns: 24),
      environment: [LaunchEnvironment.Key.cameraApp.rawValue: nil])
    // The second probe's session has started: the first one is finished and recorded.
    let second = blockUntil(timeout: .seconds(300), every: .milliseconds(50)) {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
      return names.contains { $0.hasPrefix("02-") } && access(pids, F_OK) == 0
    }
    #expect(second, "the second probe never started")
    bench.signal(SIGINT)
    #expect(bench.waitUntilExit(timeout: .seconds(120)))
    #expect(bench.terminationStatus == 130, "\(bench.standardErrorText)")
    let output = String(decoding: bench.standardOutputData, as: UTF8.self)
    #expect(output.contains("interrupted: "), "\(output)")
    let record =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/bisect.json")))
      as? [String: Any]
    #expect(record?["outcome"] as? String == "interrupted")
    let kept = (record?["probes"] as? [[String: Any]]) ?? []
    #expect(!kept.isEmpty)
    let store = try SQLiteHistoryStore(path: dir + "/h.sqlite", readOnly: true)
    #expect(try store.benchmarks(HistoryQuery(branch: HistoryQuery.bisectBranch)).count >= 2 * kept.count)
    // Every camera-app bench started has ended.
    let started = (try String(contentsOfFile: pids, encoding: .utf8)).split(separator: "\n").compactMap {
      Int32($0)
    }
    #expect(!started.isEmpty)
    for pid in started {
      #expect(
        blockUntil(timeout: .seconds(10)) { ABCommandTests.hasEnded(pid) },
        "camera-app \(pid) is still running")
    }
  }

  @Test("bad input is one line and exit 2; --help describes the command")
  func badInput() throws {
    let repo = try BisectRepository.make(["one", "two"])
    let dir = temporaryFolder("bisect-bad")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let base = ["--repo", repo.repo.path, "--out", dir + "/out", "--db", dir + "/h.sqlite"]
    let cases: [([String], String)] = [
      (base + ["HEAD"], "wants two git revisions"),
      (base + ["HEAD", "HEAD"], "the same commit"),
      (base + ["HEAD", repo.commits[0]], "is not an ancestor"),
      (base + [repo.commits[0], "nope"], "unknown revision 'nope'"),
      (base + [repo.commits[0], "HEAD", "--cell", "warm"], "--cell wants CONDITION/CONFIG"),
      (base + [repo.commits[0], "HEAD", "--runs", "8", "--max-runs", "4"], "--max-runs 4 is below --runs 8"),
      (base + [repo.commits[0], "HEAD", "--runs", "0"], "--runs"),
      (base + [repo.commits[0], "HEAD", "--db", "mysql://x"], "unknown scheme"),
      (base + [repo.commits[0], "HEAD", "--app", "true"], "--app"),
    ]
    for (arguments, expected) in cases {
      var output = ""
      var errors = ""
      let status = BisectCommand.run(arguments, output: &output, errors: &errors)
      #expect(status == 2, "\(arguments): \(errors)")
      #expect(errors.hasPrefix("bench bisect: ") && errors.contains(expected), "\(arguments): \(errors)")
      #expect(errors.split(separator: "\n").count == 1, "\(errors)")
    }
    var help = ""
    var none = ""
    #expect(BisectCommand.run(["--help"], output: &help, errors: &none) == 0)
    #expect(help.contains("--max-runs") && help.contains("first parents") && help.contains("exit status"))
  }
}
