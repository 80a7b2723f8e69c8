import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing

/// Issue 25, item 4: a failed run ranks after every finished run (it did not reach its first frame
/// in the time allowed), in the gates, the comparisons and the headline; the tables show a
/// percentile among failed runs as "≥ timeout"; and a failure rate above the allowed rise fails the
/// gate by itself.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct RankedSamplesTests {
  /// Ten runs around 100 ms, the clean baseline of the tests below.
  static let clean: [Double?] = [97, 98, 99, 99.5, 100, 100.5, 101, 101.5, 102, 103]

  /// `deferred/warm` with `values` (nil: a failed run).
  static func results(_ values: [Double?], runTimeoutSeconds: Double = 10) -> BenchResults {
    SyntheticResults.explicit(
      [.init(config: "deferred", condition: "warm", firstFrames: values)],
      runTimeoutSeconds: runTimeoutSeconds)
  }

  /// `runs` runs of `clean`'s values (repeated), the first `failed` of them failed.
  static func failing(_ failed: Int, of runs: Int) -> [Double?] {
    (0..<runs).map { $0 < failed ? nil : clean[$0 % clean.count] }
  }

  @Test("a cell whose slowest runs time out is not faster: the gate fails and the comparison is not 'faster'")
  func timeoutsAreNotFaster() throws {
    let baseline = Self.results(Self.clean)
    let current = Self.results([93, 94, 94.5, 95, 95.5, 96, 97, nil, nil, nil])
    let report = Gate.checkBaseline(current, against: baseline, options: .init())
    #expect(!report.passed, "\(report.outcomes.map(\.line))")
    let comparison = try #require(
      Comparator.compare(baseline, current).first { $0.phase == PhaseName.firstFrameObserved })
    #expect(comparison.result.verdict != .faster, "\(comparison.result)")
    #expect(comparison.result.newCount == 10, "the failed runs are in the sample")
  }

  @Test("5 of 10 failed against 0 of 10 fails by the failure-rate rule, which the message names")
  func halfFailedFails() throws {
    let report = Gate.checkBaseline(
      Self.results(Self.failing(5, of: 10)), against: Self.results(Self.clean), options: .init())
    let rate = try #require(report.outcomes.first { $0.phase == Gate.failureRatePhase })
    #expect(rate.status == .fail, "\(rate.line)")
    #expect(rate.message.contains("5 of 10 runs failed vs 0 of 10"), "\(rate.line)")
    #expect(rate.message.contains("above the allowed rise of 5 points"), "\(rate.line)")
  }

  @Test("6 of 20 failed against 0 of 20 fails, although Fisher's p is 0.0101 there")
  func sixOfTwentyFails() throws {
    let report = Gate.checkBaseline(
      Self.results(Self.failing(6, of: 20)), against: Self.results(Self.failing(0, of: 20)), options: .init())
    let rate = try #require(report.outcomes.first { $0.phase == Gate.failureRatePhase })
    #expect(rate.status == .fail, "\(rate.line)")
    #expect(rate.message.contains("p = 0.0101"), "\(rate.line)")
    #expect(rate.message.contains("not significant at α = 0.01"), "\(rate.line)")
  }

  @Test("0 of 10 against 0 of 10 passes, and so does a rise of exactly the allowed 5 points")
  func noRisePasses() {
    for (results, baseline) in [
      (Self.failing(0, of: 10), Self.failing(0, of: 10)), (Self.failing(1, of: 20), Self.failing(0, of: 20)),
    ] {
      let report = Gate.checkBaseline(
        Self.results(results), against: Self.results(baseline), options: .init())
      let rate = report.outcomes.filter { $0.phase == Gate.failureRatePhase }
      #expect(rate.count == 1 && rate.allSatisfy { $0.status == .pass }, "\(rate.map(\.line))")
    }
  }

  @Test("the gates file's baseline.failure_rate.max_rise_pct sets the allowed rise")
  func allowedRiseFromTheGatesFile() throws {
    let definitions = try GateDefinitions.decode(
      Data(#"{"schema": "firstframe.gates/1", "baseline": {"failure_rate": {"max_rise_pct": 60}}}"#.utf8),
      name: "gates.json")
    var options = Gate.BaselineOptions()
    options.apply(try #require(definitions.baseline))
    #expect(options.maxFailureRateRise == 0.6)
    // 5 of 10 against 0 of 10 is a rise of 50 points (within 60) and Fisher's p = 0.0163.
    let report = Gate.checkBaseline(
      Self.results(Self.failing(5, of: 10)), against: Self.results(Self.clean), options: options)
    let rate = try #require(report.outcomes.first { $0.phase == Gate.failureRatePhase })
    #expect(rate.status == .pass, "\(rate.line)")
    for bad in ["-1", "101", "\"5\""] {
      #expect(throws: ResultsFileError.self) {
        try GateDefinitions.decode(
          Data(
            #"{"schema": "firstframe.gates/1", "baseline": {"failure_rate": {"max_rise_pct": \#(bad)}}}"#.utf8
          ),
          name: "gates.json")
      }
    }
  }

  @Test("the table, the Markdown summary and bench compare show a percentile among failed runs as ≥ timeout")
  func tablesShowTimeout() {
    // 3 of 10 failed: p50 is among the finished runs, p90 among the failed ones.
    let results = Self.results([93, 94, 94.5, 95, 95.5, 96, 97, nil, nil, nil], runTimeoutSeconds: 5)
    let table = ResultsTable.text(results)
    #expect(table.contains("95.8 (≥ timeout)"), "\(table)")
    #expect(
      table.contains("≥ timeout: a failed run ranks after every finished run; run timeout 5 s"), "\(table)")
    let markdown = MarkdownReport.summary(results: results)
    #expect(markdown.contains("| ≥ timeout |"), "\(markdown)")
    #expect(markdown.contains("run timeout 5 s"), "\(markdown)")
    // 6 of 10 failed: the median itself is beyond the timeout.
    let mostlyFailed = Self.results([98, 99, 100, 101, nil, nil, nil, nil, nil, nil], runTimeoutSeconds: 5)
    let comparisons = Comparator.compare(Self.results(Self.clean), mostlyFailed)
    let text = ComparisonTable.text(
      comparisons, a: "a.json", b: "b.json", options: .init(), runTimeoutSeconds: [10, 5])
    #expect(text.contains("≥ timeout") && text.contains("B slower (median ≥ timeout)"), "\(text)")
    #expect(text.contains("run timeout 10 s (A), 5 s (B)"), "\(text)")
  }

  @Test("a comparison whose interval has no upper bound is kept, with ci95 [] in results.json")
  func unboundedIntervalIsKept() throws {
    // One of six runs failed on each side: a resampled median of deferred is among its failed
    // runs in about 6 % of the resamples, so the interval's upper bound is +∞.
    var results = SyntheticResults.explicit([
      .init(config: "deferred", condition: "warm", firstFrames: [100, 101, 102, 103, 104, nil]),
      .init(config: "eager", condition: "warm", firstFrames: [200, 202, 204, 206, 208, nil]),
    ])
    let comparisons = Comparator.withinRunComparisons(results.cells)
    let first = try #require(comparisons.first { $0.phase == PhaseName.firstFrameObserved })
    #expect(first.ci95.isEmpty && abs(first.ratioP50 - 102.5 / 205) < 1e-9, "\(first)")
    let path = temporaryFolder("ranked") + "/results.json"
    results.comparisons = comparisons
    try ResultsFile.save(results, to: path)
    #expect(try ResultsFile.load(path: path).comparisons == comparisons)
    #expect(Comparator.headlines(results).contains { $0.hasPrefix("deferred reaches the first frame") })
  }

  @Test("the headline says when a configuration's median run did not reach the first frame")
  func headlineBeyondTimeout() {
    let results = SyntheticResults.explicit([
      .init(config: "deferred", condition: "warm", firstFrames: Self.clean),
      .init(
        config: "eager", condition: "warm", firstFrames: [200, 210, 220, 230, nil, nil, nil, nil, nil, nil]),
    ])
    let lines = Comparator.headlines(results)
    #expect(
      lines.contains {
        $0.contains("deferred reaches the first frame")
          && $0.contains("eager's median run did not reach it within the run timeout (10 s)")
      }, "\(lines)")
  }
}
