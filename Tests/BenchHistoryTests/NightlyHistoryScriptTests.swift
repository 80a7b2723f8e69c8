import BenchHistory
import HistoryAnalysis
import Foundation
import Sampling
import Statistics
import SystemCalls
import TestSupport
import Testing

/// What `scripts/nightly-history` needs besides bench: git and python3.
enum NightlyHistoryTools {
  /// Whether git and python3 are on `PATH`.
  static let available = ["git", "python3"].allSatisfy { tool in
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileSystem.isExecutable(atPath: String($0) + "/" + tool)
    }
  }
  /// Why the suite is skipped without them.
  static let missing: Comment = "git or python3 is not installed: scripts/nightly-history needs both"
}

/// `scripts/nightly-history` against a seeded SQLite history in a scratch repository (issue 38,
/// item 3): a new slowdown on HEAD's side fails the night naming the culprit; a bisect that ran
/// out of budget is tried again the next night; the summary has a sparkline per gated series.
/// `bench bisect` is a stand-in (a script that writes what the real one would), `bench history`
/// the debug bench.
@Suite(
  .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason),
  .enabled(if: NightlyHistoryTools.available, NightlyHistoryTools.missing))
struct NightlyHistoryScriptTests {
  /// The scratch repository: the script, 24 commits, a history of the first 23 and tonight's
  /// results for the 24th; `slowFrom` the first slower night (10 %), nil for none.
  struct Night {
    let folder = temporaryFolder("nightly-history")
    var commits: [String] = []
    var repo: String { folder + "/repo" }
    var database: String { folder + "/history.sqlite" }
    var results: String { folder + "/tonight.json" }
    var out: String { folder + "/out" }

    init(slowFrom: Int?) throws {
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
      try FileManager.default.createDirectory(atPath: repo + "/scripts", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: root.path + "/scripts/nightly-history", toPath: repo + "/scripts/nightly-history")
      try git("init", "--quiet")
      for night in 0..<24 { try git("commit", "--quiet", "--allow-empty", "-m", "night \(night)") }
      commits = try git("rev-list", "--reverse", "HEAD").split(separator: "\n").map(String.init)
      let store = try SQLiteHistoryStore(path: database)
      var rng = SplitMix64(seed: 38)
      for night in 0..<24 {
        let level = slowFrom.map { night >= $0 ? 110.0 : 100 } ?? 100
        let frames: [Double?] = (0..<5).map { _ in level * (1 + 0.004 * rng.nextGaussian()) }
        let day = String(format: "2026-11-%02dT02:00:00Z", night + 1)
        let results = HistoryFixtures.results(frames, startedAt: day, seed: UInt64(night + 1))
        if night < 23 {
          _ = try store.record(HistoryBenchmark(results: results, commit: commits[night], branch: "main"))
        } else {
          _ = try HistoryFixtures.write(results, named: "tonight.json", in: folder)
        }
      }
      // The stand-in bisect: counts its calls; FAKE_BISECT=culprit names night 12's commit.
      let fake = """
        #!/bin/bash
        if [[ $1 == bisect ]]; then
          echo x >>"\(folder)/bisect-calls"
          while [[ $# -gt 0 && $1 != --out ]]; do shift; done
          mkdir -p "$2"
          if [[ $FAKE_BISECT == culprit ]]; then
            echo '{"outcome": "culprit", "culprit": {"commit": "\(commits[12])", "subject": "night 12", "ratio": 1.1, "runs": 10}}' >"$2/bisect.json"
            exit 0
          fi
          exit 130
        fi
        exec "\(BuiltProducts.path("bench"))" "$@"

        """
      try Data(fake.utf8).write(to: URL(fileURLWithPath: folder + "/bench"))
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/bench")
    }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
      var environment = ProcessInfo.processInfo.environment
      for key in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[key] = "t" }
      for key in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[key] = "t@example.invalid" }
      let git = try TestProcess.run(
        "/usr/bin/env", ["git", "-C", repo] + arguments, environment: environment)
      try #require(git.terminationStatus == 0, "git \(arguments) failed: \(git.standardErrorText)")
      return String(decoding: git.standardOutputData, as: UTF8.self).trimmingCharacters(
        in: .whitespacesAndNewlines)
    }

    /// Runs the script (with `gates` as its GATES file when given); its exit status and standard
    /// error.
    func run(bisect: String, budget: Int = 1, gates: String? = nil) throws -> (status: Int32, errors: String)
    {
      var environment = ProcessInfo.processInfo.environment
      environment["BENCH"] = folder + "/bench"
      environment["HISTORY_DB"] = database
      environment["BISECT_BUDGET"] = String(budget)
      environment["FAKE_BISECT"] = bisect
      environment["BRANCH"] = "main"
      environment["GATES"] = folder + "/no-gates.json"
      if let gates {
        try Data(gates.utf8).write(to: URL(fileURLWithPath: folder + "/gates.json"))
        environment["GATES"] = folder + "/gates.json"
      }
      environment["HISTORY_DAYS"] = "100000"
      let script = try TestProcess.run(
        "/bin/bash", [repo + "/scripts/nightly-history", results, out], environment: environment,
        timeout: .seconds(300))
      try #require(!script.timedOut, "nightly-history did not finish")
      return (script.terminationStatus, script.standardErrorText)
    }

    func text(_ path: String) -> String {
      String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
    var bisectCalls: Int { text(folder + "/bisect-calls").split(separator: "\n").count }
  }

  @Test("a new slowdown fails the night, naming the culprit in the summary and JUnit; the next night passes")
  func slowdownFails() throws {
    let night = try Night(slowFrom: 12)
    let first = try night.run(bisect: "culprit")
    #expect(first.status == 1, "\(first.errors)")
    #expect(first.errors.contains("new slowdown"))
    let summary = night.text(night.out + "/history.md")
    #expect(summary.contains("culprit \(night.commits[12])"))
    #expect(summary.contains("\(night.commits[11].prefix(12)) and \(night.commits[12].prefix(12))"))
    let junit = night.text(night.out + "/junit.xml")
    #expect(junit.contains("<failure") && junit.contains(night.commits[12]))
    #expect(night.text(night.database + ".bisected").contains("\(night.commits[11]) \(night.commits[12])"))
    let second = try night.run(bisect: "culprit")
    #expect(second.status == 0, "\(second.errors)")
    #expect(night.bisectCalls == 1)
  }

  @Test("a bisect that ran out of budget is not listed as handled and is tried again the next night")
  func failedBisectRetried() throws {
    let night = try Night(slowFrom: 12)
    let first = try night.run(bisect: "budget")
    #expect(first.status == 1, "\(first.errors)")
    #expect(night.text(night.out + "/history.md").contains("bisected again next night"))
    #expect(!FileManager.default.fileExists(atPath: night.database + ".bisected"))
    let second = try night.run(bisect: "budget")
    #expect(second.status == 1)
    #expect(night.bisectCalls == 2)
  }

  @Test("a slowdown in a phase no gate names is listed but does not fail the night")
  func ungatedSlowdownListed() throws {
    let night = try Night(slowFrom: 12)
    let run = try night.run(
      bisect: "culprit", gates: #"{"baseline": {"phases": {"no_such_phase": {"threshold_pct": 5}}}}"#)
    #expect(run.status == 0, "\(run.errors)")
    #expect(night.bisectCalls == 0)
    #expect(night.text(night.out + "/change-points.txt").contains("first_frame_observed"))
    #expect(night.text(night.out + "/gated-change-points.json").contains("\"change_points\": []"))
  }

  @Test("a flat history passes, and the summary shows the gated series as a sparkline")
  func flatPasses() throws {
    let night = try Night(slowFrom: nil)
    let run = try night.run(bisect: "culprit")
    #expect(run.status == 0, "\(run.errors)")
    #expect(night.bisectCalls == 0)
    let summary = night.text(night.out + "/history.md")
    #expect(summary.contains("warm/deferred first_frame_observed"))
    let line = try #require(
      summary.split(separator: "\n").first { $0.contains("warm/deferred first_frame_observed") })
    #expect(line.filter { "▁▂▃▄▅▆▇█".contains($0) }.count == 24)
    #expect(line.contains("24 benchmarks"))
  }
}
