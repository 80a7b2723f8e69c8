import Statistics

/// The gate's statistic today: the ratio of medians, median(new) / median(reference), with its
/// percentile-bootstrap 95 % interval (`Bootstrap`), the two-sided Mann–Whitney p (`MannWhitney`),
/// Cliff's delta and the Hodges–Lehmann shift beside it, and the rank test's power advice
/// (`PowerAdvice`).
///
/// A failed run is `+∞`, after every finished run: a median can be +∞ (the median run did not
/// reach the phase within the run timeout), the ratio +∞ when only the new median is, 0 when only
/// the reference's is, NaN when both are (no ratio: the verdict is `notEnoughData`).
package struct MedianRatioStatistic: GateStatistic {
  /// Creates the statistic.
  package init() {}

  package var locationName: String { "median" }

  package func location(_ samples: [Double]) -> Double { Statistics.median(samples) }

  package func compare(
    reference: [Double], new: [Double], threshold: Double, alpha: Double, resamples: Int, seed: UInt64
  ) -> SampleComparison {
    guard !reference.isEmpty, !new.isEmpty else {
      return SampleComparison(
        referenceCount: reference.count, newCount: new.count,
        referenceMedian: reference.isEmpty ? .nan : Statistics.median(reference),
        newMedian: new.isEmpty ? .nan : Statistics.median(new), ratio: .nan,
        ci95: ConfidenceInterval(lower: .nan, upper: .nan, level: 0.95), u: .nan, pValue: 1,
        method: .asymptotic, cliffsDelta: 0, shiftMs: .nan, verdict: .notEnoughData)
    }
    let referenceMedian = Statistics.median(reference)
    let newMedian = Statistics.median(new)
    let ratio = newMedian / referenceMedian
    let ci95 = Bootstrap.ratioOfMediansInterval(
      numerator: new, denominator: reference, resamples: resamples, seed: seed)
    let test = MannWhitney.test(reference, new)
    return SampleComparison(
      referenceCount: reference.count, newCount: new.count, referenceMedian: referenceMedian,
      newMedian: newMedian, ratio: ratio, ci95: ci95, u: test.u, pValue: test.pValue, method: test.method,
      cliffsDelta: EffectSize.cliffsDelta(new, reference),
      shiftMs: EffectSize.hodgesLehmannShift(from: reference, to: new),
      verdict: Verdict.decide(
        ratio: ratio, pValue: test.pValue, threshold: threshold, alpha: alpha,
        enoughData: reference.count >= 2 && new.count >= 2))
  }

  /// The ratio of medians and the Mann–Whitney p through `Gate.baselineStatus`, then `Gate.fails`.
  /// The rank test runs only when its p could change the decision (the verdicts at p = 0 and
  /// p = 1 differ; a smaller p never passes a check a larger one fails).
  package func baselineFails(
    reference: [Double], new: [Double], threshold: Double, alpha: Double,
    inconclusive: Gate.InconclusivePolicy
  ) -> Bool {
    let ratio = Statistics.median(new) / Statistics.median(reference)
    func decision(_ p: Double) -> Bool {
      Gate.fails(
        Gate.baselineStatus(ratio: ratio, pValue: p, threshold: threshold, alpha: alpha),
        inconclusive: inconclusive)
    }
    let certain = decision(0)
    guard certain != decision(1) else { return certain }
    return decision(MannWhitney.test(reference, new).pValue)
  }

  package func advice(phase: String, reference: [Double], new: [Double], alpha: Double, threshold: Double?)
    -> PowerAdvice
  {
    PowerAdvice(phase: phase, baseline: reference, current: new, alpha: alpha, thresholdFraction: threshold)
  }
}
