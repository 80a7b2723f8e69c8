import HistoryAnalysis
import ResultsSchema
import TestSupport
import Testing

/// A bisect probe's verdict on synthetic samples (issue 37, item 5): a commit is cleared (not
/// slower) only when the ratio's upper bound is inside the threshold at the gate's α, slower only
/// when the gate fails it, and otherwise undecided — never cleared by a ratio alone.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct BisectProbeTests {
  /// The phase the probes decide.
  static let phase = "first_frame_observed"

  /// Results holding one cell, deferred/warm, whose first_frame_observed is `samples`.
  static func results(_ samples: [Double]) -> BenchResults {
    var r = SyntheticResults.make(configs: ["deferred"], conditions: ["warm"], runs: 2)
    r.cells[0].phases = [:]
    r.cells[0].setSamples(samples, for: phase)
    return r
  }

  /// The probe's verdict on `probe` against `good` at the default 5 % threshold.
  static func verdict(good: [Double], probe: [Double], threshold: Double = 0.05) -> BisectVerdict? {
    BisectProbe.verdict(
      good: Self.results(good), probe: Self.results(probe), condition: "warm", config: "deferred",
      phase: phase, threshold: threshold
    )?.verdict
  }

  @Test("a ratio inside the threshold with a wide interval does not clear the commit: undecided")
  func wideIntervalIsUndecided() {
    // Medians 100 and 101.5 ms (ratio 1.015, inside 5 %), but runs spread 60–145 ms on both
    // sides: six runs a side cannot show the commit less than 5 % slower.
    let good = [100.0, 60, 140, 80, 120, 100]
    let probe = [102.0, 62, 145, 78, 125, 101]
    #expect(Self.verdict(good: good, probe: probe) == .inconclusive)
  }

  @Test("a tight interval inside the threshold clears the commit: not slower")
  func tightIntervalIsNotSlower() {
    let good = [100.0, 100.4, 99.8, 100.2, 99.9, 100.1]
    let probe = [100.3, 99.7, 100.0, 100.5, 99.9, 100.2]
    #expect(Self.verdict(good: good, probe: probe) == .notSlower)
  }

  @Test("a significant slowdown beyond the threshold is slower")
  func slowdownIsSlower() {
    let good = [100.0, 100.4, 99.8, 100.2, 99.9, 100.1]
    let probe = good.map { $0 * 1.4 }
    #expect(Self.verdict(good: good, probe: probe) == .slower)
  }

  @Test(
    "the upper bound is the rank test inverted: with 6 runs a side at α = 0.01, the 4th largest of 36 ratios")
  func upperBoundIsTheRankTestInverted() {
    let z = 2.3263478740408408  // the normal quantile at 0.99
    let good = [100.0, 60, 140, 80, 120, 100]
    let probe = [102.0, 62, 145, 78, 125, 101]
    // U < 18 − 2.326 × √39 = 3.47 lets 3 pairs above s: the 4th largest ratio, 102 / 60.
    #expect(BisectProbe.upperBound(reference: good, new: probe, z: z) == 102.0 / 60)
    // Two runs a side cannot reach α = 0.01 whatever they read: no bound.
    #expect(BisectProbe.upperBound(reference: [100, 100], new: [50, 50], z: z) == .infinity)
    // A failed run (+∞) is above every GOOD run at any factor: its 6 pairs are more than the 3
    // allowed above, and nothing bounds the ratio.
    let steady = [100.0, 100.4, 99.8, 100.2, 99.9, 100.1]
    let clean = BisectProbe.upperBound(reference: steady, new: steady, z: z)
    let failed = BisectProbe.upperBound(reference: steady, new: Array(steady.dropLast()) + [.infinity], z: z)
    #expect(clean < 1.01 && failed == .infinity, "\(clean) \(failed)")
  }
}
