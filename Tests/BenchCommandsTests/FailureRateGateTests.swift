import Foundation
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// Issue 25's case, as a user meets it: an app that fails 5 of its 10 launches, gated with the
/// built `bench gate --force` against a clean 10-run baseline made with another app command. It
/// printed "gate: passed" (Fisher's test cannot reach α = 0.01 at 10 against 10); the failure-rate
/// rule fails it, naming the rule.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct FailureRateGateTests {
  let dir = temporaryFolder("failure-rate-gate")

  /// Writes `results` to `dir/name` and returns its path.
  func save(_ results: BenchResults, _ name: String) throws -> String {
    let path = dir + "/" + name
    try ResultsFile.save(results, to: path)
    return path
  }

  /// `deferred/warm` with the given first frames (nil: a run that timed out), made with `app`.
  func results(_ firstFrames: [Double?], app: String?) -> BenchResults {
    SyntheticResults.explicit(
      [.init(config: "deferred", condition: "warm", firstFrames: firstFrames)], app: app)
  }

  @Test(
    "5 of 10 failed launches against a clean baseline: bench gate --force exits 1 naming the failure rate")
  func halfFailedLaunchesFailTheGate() throws {
    let clean: [Double?] = [97, 98, 99, 99.5, 100, 100.5, 101, 101.5, 102, 103]
    let baseline = try save(results(clean, app: nil), "baseline.json")
    let flaky = try save(
      results([nil, 98, nil, 99.5, nil, 100.5, nil, 101.5, nil, 103], app: "/opt/flaky-camera-app"),
      "flaky.json")
    let refused = try #require(try BenchInvocation.run(["gate", "--baseline", baseline, flaky]))
    #expect(refused.status == 2 && refused.errors.contains("--force"), "\(refused.errors)")

    let outcome = try #require(try BenchInvocation.run(["gate", "--baseline", baseline, flaky, "--force"]))
    #expect(outcome.status == 1, "\(outcome.output)\(outcome.errors)")
    #expect(
      outcome.output.contains(
        "FAIL failure_rate deferred/warm: 5 of 10 runs failed vs 0 of 10 in the baseline"),
      "\(outcome.output)")
    #expect(outcome.output.contains("above the allowed rise of 5 points"), "\(outcome.output)")
    #expect(outcome.output.contains("gate: FAILED") && outcome.output.contains("failure_rate deferred/warm"))

    // --max-failure-rise allows more: the failure-rate rule then passes (Fisher's p = 0.0163).
    let allowed = try #require(
      try BenchInvocation.run(["gate", "--baseline", baseline, flaky, "--force", "--max-failure-rise", "60"]))
    #expect(allowed.output.contains("PASS failure_rate deferred/warm"), "\(allowed.output)")
    let bad = try #require(
      try BenchInvocation.run(["gate", "--baseline", baseline, flaky, "--max-failure-rise", "150"]))
    #expect(bad.status == 2 && bad.errors.split(separator: "\n").count == 1, "\(bad.errors)")

    let same = try save(results(clean, app: "/opt/flaky-camera-app"), "same.json")
    let passed = try #require(try BenchInvocation.run(["gate", "--baseline", baseline, same, "--force"]))
    #expect(passed.status == 0, "\(passed.output)")
  }
}
