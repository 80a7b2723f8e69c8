#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import ResultsSchema
import SystemCalls
import TestThreads
import Testing
import TestSupport

/// The app under test kept out of the results folder (issue 28, item 4): its trace lives in a
/// private folder of the run's own, outside `--out`, so the app cannot reach the journal, the
/// logs of later runs or the traces bench keeps; and what bench keeps of the trace is a copy it
/// made, never a link the app planted.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct AppOutsideResultsTests {
  /// A workspace: `out` (bench's results), `tmp` (bench's `$TMPDIR`, where the private trace
  /// folders are made) and the app `script`.
  struct Folder {
    let root = temporaryFolder("app-outside")
    var out: String { root + "/out" }
    var tmp: String { root + "/tmp" }

    /// Writes the app `body` (a shell script, `$1` the configuration) and returns its path.
    func app(_ body: String) throws -> String {
      // Passable by the app user (the private trace folders inside are bench's, mode 0711).
      try FileSystem.createDirectory(atPath: tmp, mode: 0o711)
      return try BenchInvocation.writeScript("#!/bin/sh\n" + body + "\n", named: "app.sh", in: root)
    }

    /// Runs bench with `app` for two runs of deferred under `condition` (warm: and their priming
    /// run), `TMPDIR` set to ``tmp`` and `environment` added. Returns how it ended.
    func bench(
      _ app: String, condition: String = "warm", environment: [String: String] = [:]
    ) throws -> BenchInvocation.Outcome {
      let arguments = [
        "--runs", "2", "--warmup", "0", "--conditions", condition, "--configs", "deferred", "--run-timeout",
        "1",
        "--out", out, "--app", app + " {config}",
      ]
      return try #require(
        try BenchInvocation.run(arguments, environment: environment.merging(["TMPDIR": tmp]) { $1 }))
    }

    /// The private trace folders bench left in ``tmp`` (none: each is removed after its run).
    var leftoverTraceFolders: [String] {
      ((try? FileSystem.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("firstframe-run-") }
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
  }

  @Test("an app that appends a forged line to the journal beside its trace changes nothing in --out")
  func forgedJournalLine() throws {
    let ws = Folder()
    defer { ws.remove() }
    let marker = "FORGED-BY-THE-APP"
    let app = try ws.app(
      """
      printf '{"kind":"run","note":"\(marker)"}\\n' >> "$(dirname "$FIRSTFRAME_TRACE")/../journal.jsonl"
      exec sleep 300
      """)
    let outcome = try ws.bench(app)
    #expect(outcome.status == 1, "\(outcome.errors)")
    let journal = String(
      decoding: FileSystem.readFile(atPath: ws.out + "/" + RunJournal.fileName) ?? [], as: UTF8.self)
    #expect(!journal.isEmpty, "bench kept no journal")
    #expect(!journal.contains(marker), "the app's forged line reached the run journal")
    #expect(ws.leftoverTraceFolders.isEmpty, "private trace folders left behind: \(ws.leftoverTraceFolders)")
  }

  /// An app that looks through bench's open descriptors (`/proc/$PPID/fd/*`) for the run
  /// journal and appends a forged line to it (issue 41: 5 lines forged before), says on stderr
  /// which uid it ran as and how many lines it wrote, then waits to be stopped.
  static func forgerThroughProc(marker: String) -> String {
    """
    forged=0
    for fd in /proc/$PPID/fd/*; do
      case "$(readlink "$fd" 2>/dev/null)" in
        *journal.jsonl) printf '{"kind":"run","note":"\(marker)"}\\n' >> "$fd" 2>/dev/null && forged=$((forged + 1)) ;;
      esac
    done
    echo "app-uid $(id -u) forged $forged" >&2
    exec sleep 300
    """
  }

  @Test(
    "bench as root, the default app user: a wrapper that appends to bench's journal through /proc/$PPID/fd forges nothing; the app runs as that user, recorded",
    .enabled(
      if: geteuid() == 0, "needs root: as another user bench's descriptors are out of the app's reach anyway"),
    arguments: ["warm", "relock"])
  func forgedThroughProcFD(condition: String) throws {
    let ws = Folder()
    defer { ws.remove() }
    let marker = "FORGED-THROUGH-PROC"
    let app = try ws.app(Self.forgerThroughProc(marker: marker))
    // No sudo in the environment: the default app user is nobody.
    let outcome = try ws.bench(app, condition: condition, environment: ["SUDO_USER": "", "SUDO_UID": ""])
    #expect(outcome.status == 1, "\(outcome.errors)")
    let journal = String(
      decoding: FileSystem.readFile(atPath: ws.out + "/" + RunJournal.fileName) ?? [], as: UTF8.self)
    #expect(!journal.isEmpty, "bench kept no journal")
    let forged = journal.components(separatedBy: marker).count - 1
    #expect(forged == 0, "the app forged \(forged) journal lines through /proc/$PPID/fd")
    let logs = ((try? FileSystem.contentsOfDirectory(atPath: ws.out + "/traces")) ?? []).filter {
      $0.hasSuffix(".log")
    }
    let said = logs.compactMap { FileSystem.readText(atPath: ws.out + "/traces/" + $0) }.joined()
    #expect(said.contains("app-uid 65534 forged 0"), "the app did not run as nobody, or forged: \(said)")
    let results = try ResultsFile.load(path: ws.out + "/results.json", timelines: .none)
    let user = try #require(results.settings.appUser, "results.json records no app user")
    #expect(user.name == "nobody" && user.uid == 65534 && user.benchIsRoot && !user.reachesResults, "\(user)")
  }

  @Test(
    "--app-user root: recorded, and named in the table as an app that could have reached the results",
    .enabled(if: geteuid() == 0, "needs root: only a root bench runs the app as root"))
  func rootAppUserIsNamed() throws {
    let ws = Folder()
    defer { ws.remove() }
    let app = try ws.app("echo \"app-uid $(id -u)\" >&2\nexec sleep 300")
    let arguments = [
      "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--run-timeout", "1",
      "--out", ws.out, "--app", app + " {config}", "--app-user", "root",
    ]
    let outcome = try #require(try BenchInvocation.run(arguments, environment: ["TMPDIR": ws.tmp]))
    #expect(outcome.status == 1, "\(outcome.errors)")
    #expect(outcome.output.contains("an app that could have reached the results"), "\(outcome.output)")
    let results = try ResultsFile.load(path: ws.out + "/results.json", timelines: .none)
    let user = try #require(results.settings.appUser)
    #expect(user.name == "root" && user.uid == 0 && user.reachesResults, "\(user)")
  }

  @Test(
    "as root, an app in a folder the app user cannot pass: one line naming the folder, exit 2, --app-user root suggested",
    .enabled(if: geteuid() == 0, "needs root: only a root bench runs the app as another user"))
  func unreachableAppRefused() throws {
    let ws = Folder()
    defer { ws.remove() }
    let closed = ws.root + "/closed"
    try FileSystem.createDirectory(atPath: closed, mode: 0o700)
    let app = try BenchInvocation.writeScript("#!/bin/sh\nexec sleep 300\n", named: "app.sh", in: closed)
    let outcome = try #require(
      try BenchInvocation.run(
        ["--runs", "1", "--conditions", "warm", "--configs", "deferred", "--out", ws.out, "--app", app],
        environment: ["SUDO_USER": "", "SUDO_UID": ""]))
    #expect(outcome.status == 2, "\(outcome.errors)")
    let lines = outcome.errors.split(separator: "\n")
    #expect(lines.count == 1, "\(outcome.errors)")
    #expect(outcome.errors.contains("\(closed) (mode 0700"), "\(outcome.errors)")
    #expect(outcome.errors.contains("--app-user root"), "\(outcome.errors)")
  }

  @Test(
    "as root, a profile in a folder the app user cannot pass (bench ab's pinned OUT/profile.json in a 0700 folder): camera-app as nobody reads bench's copy, every run succeeds",
    .enabled(if: geteuid() == 0, "needs root: only a root bench runs the app as another user"))
  func profileInClosedFolder() throws {
    let ws = Folder()
    defer { ws.remove() }
    try FileSystem.createDirectory(atPath: ws.tmp, mode: 0o711)
    let closed = ws.root + "/closed"
    try FileSystem.createDirectory(atPath: closed, mode: 0o700)
    let profile = closed + "/profile.json"
    try FileSystem.replaceAtomically(
      try #require(FileSystem.readFile(atPath: FaultCase.fastProfile)), atPath: profile)
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--out", ws.out,
          "--profile", profile,
        ],
        environment: ["TMPDIR": ws.tmp, "SUDO_USER": "", "SUDO_UID": ""]))
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(!outcome.errors.contains("Permission denied"), "\(outcome.errors)")
    let results = try ResultsFile.load(path: ws.out + "/results.json", timelines: .none)
    #expect(results.settings.profile == profile, "results.json records another profile path")
    #expect(results.settings.appUser?.uid == 65534)
    #expect(ws.leftoverTraceFolders.isEmpty, "private folders left behind: \(ws.leftoverTraceFolders)")
  }

  @Test("an app that plants the next run's .log beside its trace does not put bytes in bench's log")
  func plantedNextLog() throws {
    let ws = Folder()
    defer { ws.remove() }
    let marker = "PLANTED-BY-THE-APP"
    let app = try ws.app(
      """
      dir=$(dirname "$FIRSTFRAME_TRACE")
      for n in 1 2; do printf '\(marker)\\n' >> "$dir/warm-deferred-$n.log"; done
      exec sleep 300
      """)
    let outcome = try ws.bench(app)
    #expect(outcome.status == 1, "\(outcome.errors)")
    for n in 1...2 {
      let log = String(
        decoding: FileSystem.readFile(atPath: ws.out + "/traces/warm-deferred-\(n).log") ?? [], as: UTF8.self)
      #expect(!log.contains(marker), "run \(n)'s log holds the bytes the app planted: \(log)")
    }
  }

  @Test(
    "a bench killed with SIGKILL leaves its private trace folder; the next bench removes it, and leaves a running bench's alone"
  )
  func abandonedTraceFolderRemoved() throws {
    let ws = Folder()
    defer { ws.remove() }
    // Long enough to outlive the bench killed below (nothing stops it then), not much longer.
    let app = try ws.app("exec sleep 30")
    let arguments = [
      "--runs", "1", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--run-timeout", "60",
      "--out", ws.root + "/killed", "--app", app + " {config}",
    ]
    let killed = try BenchInvocation.start(arguments, environment: ["TMPDIR": ws.tmp])
    let started = blockUntil(timeout: .seconds(60)) { !ws.leftoverTraceFolders.isEmpty }
    killed.signal(SIGKILL)
    #expect(killed.waitUntilExit(timeout: .seconds(60)))
    try #require(started, "bench made no private trace folder: \(killed.standardErrorText)")
    let abandoned = ws.leftoverTraceFolders
    // A folder of a bench that still runs (this process stands in for it) is not touched.
    let running = "firstframe-run-\(getpid())-Live00"
    try FileSystem.createDirectory(atPath: ws.tmp + "/" + running, mode: 0o700)
    let outcome = try ws.bench(app)
    #expect(outcome.status == 1, "\(outcome.errors)")
    #expect(ws.leftoverTraceFolders == [running], "left: \(ws.leftoverTraceFolders), abandoned: \(abandoned)")
  }

  @Test("an app that swaps its trace for a link to a file outside: bench neither follows nor keeps the link")
  func traceSwappedForLink() throws {
    let ws = Folder()
    defer { ws.remove() }
    let target = ws.root + "/outside.jsonl"
    let outside = #"{"ts":1,"name":"app.main","kind":"event","pid":1,"fields":{}}"# + "\n"
    try FileSystem.replaceAtomically(outside, atPath: target)
    let app = try ws.app(
      """
      rm -f "$FIRSTFRAME_TRACE"
      ln -s '\(target)' "$FIRSTFRAME_TRACE"
      exec sleep 300
      """)
    let outcome = try ws.bench(app)
    #expect(outcome.status == 1, "\(outcome.errors)")
    #expect(FileSystem.readText(atPath: target) == outside, "the link's target was changed")
    let traces = (try? FileSystem.contentsOfDirectory(atPath: ws.out + "/traces")) ?? []
    let links = traces.filter { name in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: ws.out + "/traces/" + name)) != nil
    }
    #expect(links.isEmpty, "the results folder keeps the app's links: \(links)")
    let results = try ResultsFile.load(path: ws.out + "/results.json", timelines: .none)
    let records = results.cells.flatMap(\.records)
    #expect(!records.isEmpty)
    #expect(
      records.allSatisfy { !$0.ok && ($0.counts["malformed_trace_lines"] ?? 0) > 0 },
      "a run whose trace was a link is not reported as the app's broken trace: \(records)")
    #expect(ws.leftoverTraceFolders.isEmpty, "private trace folders left behind: \(ws.leftoverTraceFolders)")
  }
}
