import Statistics

/// Two samples of one phase compared, as a ``GateStatistic`` compares them: today
/// (``MedianRatioStatistic``) the ratio of medians with its bootstrap CI, the Mann–Whitney
/// test, effect sizes and a verdict. "new vs reference": the ratio is median(new)/median(reference),
/// so 0.5 means the new sample takes half as long. Milliseconds.
///
/// The samples are ranked samples (`BenchResults.Cell.rankedSamples(for:)`): a failed run is `+∞`,
/// after every finished run. So a median can be +∞ (the median run did not reach the phase within
/// the run timeout), and the ratio +∞ when only the new median is, 0 when only the reference's is,
/// NaN when both are (no ratio: the verdict is `notEnoughData`).
public struct SampleComparison: Sendable, Hashable, Codable {
  /// Runs in the reference sample.
  public var referenceCount: Int
  /// Runs in the new sample.
  public var newCount: Int
  /// Median of the reference sample, ms.
  public var referenceMedian: Double
  /// Median of the new sample, ms.
  public var newMedian: Double
  /// median(new) / median(reference).
  public var ratio: Double
  /// Percentile-bootstrap 95 % CI of `ratio`.
  public var ci95: ConfidenceInterval
  /// Mann–Whitney U of the reference sample (SciPy's convention: U of the first argument).
  public var u: Double
  /// Two-sided Mann–Whitney p-value.
  public var pValue: Double
  /// `exact` or `asymptotic`.
  public var method: MannWhitney.Method
  /// Cliff's delta of new against reference (−1: every new run faster than every reference run).
  public var cliffsDelta: Double
  /// Hodges–Lehmann shift from reference to new, ms (positive: new is slower).
  public var shiftMs: Double
  /// The verdict for new relative to reference.
  public var verdict: Verdict

  /// Compares `new` against `reference` by the ratio of medians (``MedianRatioStatistic``; the
  /// gates and `bench compare` compare through ``Gate/statistic``).
  /// - Parameters:
  ///   - threshold: noise threshold as a fraction (0.02 = 2 %).
  ///   - alpha: significance level.
  ///   - seed: the bootstrap's seed (same seed, same interval).
  public init(
    reference: [Double], new: [Double], threshold: Double, alpha: Double,
    resamples: Int = Bootstrap.defaultResamples, seed: UInt64 = Bootstrap.defaultSeed
  ) {
    self = MedianRatioStatistic().compare(
      reference: reference, new: new, threshold: threshold, alpha: alpha, resamples: resamples, seed: seed)
  }

  /// Creates a comparison from its figures (what a ``GateStatistic`` computes).
  package init(
    referenceCount: Int, newCount: Int, referenceMedian: Double, newMedian: Double, ratio: Double,
    ci95: ConfidenceInterval, u: Double, pValue: Double, method: MannWhitney.Method, cliffsDelta: Double,
    shiftMs: Double, verdict: Verdict
  ) {
    self.referenceCount = referenceCount
    self.newCount = newCount
    self.referenceMedian = referenceMedian
    self.newMedian = newMedian
    self.ratio = ratio
    self.ci95 = ci95
    self.u = u
    self.pValue = pValue
    self.method = method
    self.cliffsDelta = cliffsDelta
    self.shiftMs = shiftMs
    self.verdict = verdict
  }
}
