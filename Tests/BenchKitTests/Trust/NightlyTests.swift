import Foundation
import TestSupport
import TestThreads
import Testing

/// `scripts/nightly` with the debug bench (`BENCH=`), no baseline and no gates file: only what
/// bench itself says decides the exit status.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct NightlyTests {
  @Test("the nightly exits non-zero when bench's runs failed, even though no gate failed")
  func failedRunsFailTheNightly() throws {
    let dir = temporaryFolder("nightly-failed-runs")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    var env = ProcessInfo.processInfo.environment
    env["BENCH"] = BuiltProducts.path("bench")
    // The suite once, gated against a (missing) stored baseline: bench ab, the nightly's
    // default, refuses --app (the revisions name the app).
    env["GATE"] = "baseline"
    env["RUNS"] = "1"
    env["OUT"] = dir + "/out"
    env["BASELINE"] = dir + "/no-baseline.json"
    env["GATES"] = dir + "/no-gates.json"
    env["GITHUB_STEP_SUMMARY"] = dir + "/summary.md"
    env["HISTORY_DB"] = dir + "/history.sqlite"
    // Only the benchmark and its gates: no calibration, planted or bisect check, peers in the VM, fuzzing
    // or sanitizer runs (they come after).
    env["CALIBRATE_TRIALS"] = "0"
    env["FUZZ_SECONDS"] = "0"
    env["SANITIZE"] = "none"
    env["PLANTED"] = "0"
    env["BISECT_CHECK"] = "0"
    env["STATES_COST_PAIRS"] = "0"
    env["PEERS_RUNS"] = "0"
    env["UNPRIVILEGED"] = "0"
    // The checkout's own history (a user's Results/history.sqlite) is not the test's to write.
    let checkoutHistory = root.path + "/Results/history.sqlite"
    let before = Self.fingerprint(checkoutHistory)
    let nightly = try TestProcess.run(
      "/bin/bash",
      [
        root.path + "/scripts/nightly", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--app", "/bin/sh -c 'kill -SEGV $$'",
      ], environment: env, timeout: .seconds(120))
    try #require(!nightly.timedOut, "the nightly did not finish")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/results.json"))
    #expect(nightly.terminationStatus == 1)
    // Tonight's crashed runs went into the history the test named, nowhere else.
    #expect(FileManager.default.fileExists(atPath: dir + "/history.sqlite"))
    #expect(Self.fingerprint(checkoutHistory) == before, "the test wrote into \(checkoutHistory)")
  }

  /// The database's and its write-ahead log's sizes and modification times ("-" for a file that
  /// does not exist): SQLite in WAL mode may leave the main file as it was until a checkpoint.
  private static func fingerprint(_ path: String) -> String {
    [path, path + "-wal"].map { file in
      guard let a = try? FileManager.default.attributesOfItem(atPath: file) else { return "-" }
      return "\(a[.size] ?? 0)@\((a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }.joined(separator: " ")
  }
}
