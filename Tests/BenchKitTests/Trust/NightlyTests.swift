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
    // Only the benchmark and its gates: no calibration, planted check, fuzzing or sanitizer runs
    // (they come after).
    env["CALIBRATE_TRIALS"] = "0"
    env["FUZZ_SECONDS"] = "0"
    env["SANITIZE"] = "none"
    env["PLANTED"] = "0"
    env["STATES_COST_PAIRS"] = "0"
    env["UNPRIVILEGED"] = "0"
    let nightly = try TestProcess.run(
      "/bin/bash",
      [
        root.path + "/scripts/nightly", "--warmup", "0", "--conditions", "warm", "--configs", "deferred",
        "--quiet", "--app", "/bin/sh -c 'kill -SEGV $$'",
      ], environment: env, timeout: .seconds(120))
    try #require(!nightly.timedOut, "the nightly did not finish")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/results.json"))
    #expect(nightly.terminationStatus == 1)
  }
}
