import Gates
import Sampling
import Statistics
import TestSupport
import Testing

/// The gate-statistic seam (issue 35, item 5): the gates decide through `Gate.statistic`, and its
/// quick decision for the gate's power measurement is the decision of its full comparison.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct GateStatisticTests {
  /// Samples of `count` runs around `center` ms, every `failEvery`-th one failed (`+∞`).
  static func sample(_ rng: inout SplitMix64, count: Int, center: Double, failEvery: Int) -> [Double] {
    (0..<count).map { i in
      failEvery > 0 && i % failEvery == failEvery - 1 ? .infinity : center * (1 + 0.05 * rng.nextGaussian())
    }
  }

  @Test("the statistic the gates use today is the ratio of medians, and SampleComparison is its comparison")
  func today() {
    #expect(Gate.statistic is MedianRatioStatistic)
    #expect(Gate.statistic.locationName == "median")
    let reference: [Double] = [100, 102, 98, 101, 99, 103]
    let new: [Double] = [110, 108, 112, 109, 111, 107]
    #expect(Gate.statistic.location(new) == Statistics.median(new))
    let seam = Gate.statistic.compare(
      reference: reference, new: new, threshold: 0.05, alpha: 0.01, resamples: 500, seed: 7)
    let direct = SampleComparison(
      reference: reference, new: new, threshold: 0.05, alpha: 0.01, resamples: 500, seed: 7)
    #expect(seam == direct)
    #expect(seam.ratio == Statistics.median(new) / Statistics.median(reference))
  }

  @Test("the quick decision GatePower repeats is the baseline check's decision on the full comparison")
  func quickDecisionAgrees() {
    var rng = SplitMix64(seed: 35_05)
    let statistic = Gate.statistic
    for trial in 0..<300 {
      let count = 3 + trial % 12
      let reference = Self.sample(&rng, count: count, center: 100, failEvery: trial % 4 == 0 ? 5 : 0)
      let new = Self.sample(
        &rng, count: count, center: 100 * (1 + Double(trial % 7) * 0.03), failEvery: trial % 6 == 0 ? 3 : 0)
      for policy in Gate.InconclusivePolicy.allCases {
        let full = statistic.compare(
          reference: reference, new: new, threshold: 0.05, alpha: 0.01, resamples: 200, seed: 1)
        let expected = Gate.fails(
          Gate.baselineStatus(ratio: full.ratio, pValue: full.pValue, threshold: 0.05, alpha: 0.01),
          inconclusive: policy)
        let quick = statistic.baselineFails(
          reference: reference, new: new, threshold: 0.05, alpha: 0.01, inconclusive: policy)
        #expect(quick == expected, "trial \(trial), \(policy): \(reference) vs \(new)")
      }
    }
  }
}
