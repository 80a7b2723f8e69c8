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
      try FileSystem.createDirectory(atPath: tmp, mode: 0o700)
      return try BenchInvocation.writeScript("#!/bin/sh\n" + body + "\n", named: "app.sh", in: root)
    }

    /// Runs bench with `app` for two warm runs of deferred (and their priming run), `TMPDIR` set
    /// to ``tmp``. Returns how it ended.
    func bench(_ app: String) throws -> BenchInvocation.Outcome {
      let arguments = [
        "--runs", "2", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--run-timeout", "1",
        "--out", out, "--app", app + " {config}",
      ]
      return try #require(try BenchInvocation.run(arguments, environment: ["TMPDIR": tmp]))
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
