import Statistics

/// What a gate needs from a statistic: how a new sample compares with a reference one (an
/// estimate of new relative to reference, its 95 % interval and a test's p-value), the cheap
/// decision the gate's power measurement repeats, and the power advice at given run counts.
///
/// The baseline gate (`Gate.checkBaseline`), the relative gates (`Gate.checkRelative`), `bench
/// compare` (`Comparator.compare`) and the measured power (`GatePower`) all compare through
/// ``Gate/statistic``, the one place that chooses it. Today's statistic is
/// ``MedianRatioStatistic``; another one (a sequential test, another location) is a new type
/// conforming to this protocol and a change to that one place. The decision rules stay
/// `Gate.baselineStatus` and the relative gate's bounds, on the estimate, interval and p given.
///
/// Samples are milliseconds in run order, a failed run `+∞` (`rankedSamples(for:)`).
package protocol GateStatistic: Sendable {
  /// What the statistic reads of one sample, for people: `median`.
  var locationName: String { get }

  /// The value of one sample the estimate compares (its median), ms; NaN when empty.
  func location(_ samples: [Double]) -> Double

  /// Compares `new` against `reference`: the estimate (new relative to reference, 1 = the same),
  /// its 95 % interval from `resamples` seeded by `seed`, the test's p and the verdict at
  /// `threshold` (a fraction) and `alpha`.
  func compare(
    reference: [Double], new: [Double], threshold: Double, alpha: Double, resamples: Int, seed: UInt64
  ) -> SampleComparison

  /// True when the baseline check fails `new` against `reference`: the decision of ``compare``
  /// through `Gate.baselineStatus` and `Gate.fails`, without the interval (which the baseline
  /// check's status does not read). `GatePower` decides ~50,000 comparisons a cell this way.
  func baselineFails(
    reference: [Double], new: [Double], threshold: Double, alpha: Double,
    inconclusive: Gate.InconclusivePolicy
  ) -> Bool

  /// How small a change these runs can catch, and how many runs would catch `threshold` (a
  /// fraction), for the check named `phase`.
  func advice(phase: String, reference: [Double], new: [Double], alpha: Double, threshold: Double?)
    -> PowerAdvice
}
