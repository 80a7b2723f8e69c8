import Foundation
import Gates
import LaunchContract
import Reports
import Statistics
import TestSupport
import Testing

/// Failed runs count: a rise in a cell's failure rate fails the gate, and every table shows how
/// many runs failed beside the distribution.
@Suite struct FailureRateTests {
  @Test("a cell where half the runs failed, against a clean baseline, fails the gate as a failure-rate rise")
  func failedRunsFailTheGate() {
    let baseline = SyntheticResults.make(conditions: ["warm"], seed: 7)
    let results = SyntheticResults.make(conditions: ["warm"], seed: 7, failEvery: 2)
    let report = Gate.checkBaseline(results, against: baseline, options: .init())
    #expect(!report.passed, "\(report.outcomes.map(\.line))")
    let rise = report.failures.filter { $0.name.hasPrefix("failure_rate ") }
    #expect(rise.count == 2, "\(report.outcomes.map(\.line))")
    #expect(rise.allSatisfy { $0.message.contains("10 of 20 runs failed") && $0.message.contains("0 of 20") })
  }

  @Test("the same failure rate in results and baseline passes")
  func sameRatePasses() {
    let baseline = SyntheticResults.make(conditions: ["warm"], seed: 1, failEvery: 5)
    let results = SyntheticResults.make(conditions: ["warm"], seed: 2, failEvery: 5)
    let report = Gate.checkBaseline(results, against: baseline, options: .init())
    let rates = report.outcomes.filter { $0.name.hasPrefix("failure_rate ") }
    #expect(rates.count == 2 && rates.allSatisfy { $0.status == .pass }, "\(rates.map(\.line))")
  }

  @Test("Fisher's exact test, one-sided: 8 of 20 against 0 of 20 is C(20,8)/C(40,8)")
  func fisher() {
    let p = FisherExact.greaterPValue(failed: 8, runs: 20, baselineFailed: 0, baselineRuns: 20)
    #expect(abs(p - 125_970.0 / 76_904_685.0) < 1e-9)
    #expect(FisherExact.greaterPValue(failed: 0, runs: 20, baselineFailed: 5, baselineRuns: 20) == 1)
    #expect(
      abs(FisherExact.greaterPValue(failed: 3, runs: 10, baselineFailed: 3, baselineRuns: 10) - 0.6857585)
        < 1e-6)
  }

  @Test("the table, the Markdown summary and the gate's messages say k of n failed")
  func tablesSayHowManyFailed() {
    let results = SyntheticResults.make(conditions: ["warm"], seed: 7, failEvery: 4)
    #expect(ResultsTable.text(results).contains("5 of 20 failed"))
    #expect(MarkdownReport.summary(results: results).contains("5 of 20"))
    let report = Gate.checkBaseline(
      results, against: SyntheticResults.make(conditions: ["warm"]), options: .init())
    let phase = report.outcomes.filter { $0.phase == PhaseName.firstFrameObserved && $0.kind == .baseline }
    #expect(
      !phase.isEmpty && phase.allSatisfy { $0.message.contains("5 of 20 runs failed") },
      "\(phase.map(\.line))")
  }
}
