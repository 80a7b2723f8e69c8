import Sampling

/// Percentile-bootstrap confidence intervals, seeded and reproducible.
///
/// Method (Efron's percentile bootstrap, the same as SciPy's
/// `scipy.stats.bootstrap(..., method="percentile", paired=False)`): each of B resamples draws
/// n values with replacement from each sample **independently**, computes the statistic, and the
/// interval is the (1 − level)/2 and 1 − (1 − level)/2 type-7 percentiles of the B statistics.
/// The generator is `SplitMix64(seed:)`, so a seed always gives the same interval.
///
/// A resample whose ratio is not finite (its denominator's median is 0) is dropped; the interval
/// says how many (`droppedResamples`). Dropped resamples are not a random loss — they are the
/// resamples with the largest ratios — so when more than `maximumDroppedFraction` (1 %) of them
/// are dropped the bootstrap refuses: both bounds are NaN, and comparisons and gates treat the
/// interval as missing.
///
/// Failed runs (`+∞`, a run that did not reach the phase in the time allowed) are values like any
/// other: a resample whose numerator median is +∞ over a finite, positive denominator median has
/// the ratio +∞, which is kept (it is the ratio: the new side's median run did not finish), so the
/// upper bound can be +∞; a finite numerator over an infinite denominator is 0, kept too. A
/// resample with both medians infinite has no ratio and is dropped: with many of them the bootstrap
/// refuses, as it should.
///
/// The interval carries Monte-Carlo error: with B = 4000 an endpoint moves by roughly
/// ±1–2 % of the ratio between seeds for 10–20 runs (see `stats-reference.json`, whose tolerance is
/// measured that way). With few runs the bootstrap distribution of a median is lumpy (it can take
/// only a few distinct values), so the interval is coarse; that is a property of the data.
public enum Bootstrap {
  /// The default number of resamples (at least 2000, as the percentile method wants).
  public static let defaultResamples = 4000
  /// The default seed, so reports are reproducible without one.
  public static let defaultSeed: UInt64 = 0x5EED_F1F5_7F4A_3E11
  /// The largest share of resamples that may be dropped before the bootstrap refuses (0.01 = 1 %).
  public static let maximumDroppedFraction = 0.01

  /// The percentile-bootstrap interval of median(numerator) / median(denominator).
  /// Returns a degenerate interval at the point estimate when either sample has one value, and
  /// NaN bounds (refused) when more than `maximumDroppedFraction` of the resamples were dropped.
  /// - Precondition: both samples non-empty.
  public static func ratioOfMediansInterval(
    numerator: [Double], denominator: [Double], level: Double = 0.95,
    resamples: Int = defaultResamples, seed: UInt64 = defaultSeed
  ) -> ConfidenceInterval {
    precondition(!numerator.isEmpty && !denominator.isEmpty, "the bootstrap needs two non-empty samples")
    let drawn = Swift.max(1, resamples)
    let replicates = ratioOfMediansReplicates(
      numerator: numerator, denominator: denominator, resamples: drawn, seed: seed)
    let dropped = drawn - replicates.count
    if Double(dropped) > maximumDroppedFraction * Double(drawn) {
      return ConfidenceInterval(
        lower: .nan, upper: .nan, level: level, resamples: drawn, droppedResamples: dropped)
    }
    var interval = percentileInterval(sortedReplicates: replicates, level: level)
    interval.resamples = drawn
    interval.droppedResamples = dropped
    return interval
  }

  /// The bootstrap replicates of median(numerator*) / median(denominator*), sorted ascending:
  /// B resamples drawn, ratios without meaning (a zero or infinite denominator median under a
  /// non-finite numerator) dropped, so there may be fewer than B (`ratioOfMediansInterval` counts
  /// them); +∞ (a numerator median among failed runs over a finished denominator) is kept.
  ///
  /// Each resample draws n indices with replacement, as the method says; its median is then found
  /// by counting, not sorting: a draw of index i counts at the rank of sample i, and the median's
  /// rank (the middle two for an even n) is read off the running count. The k-th smallest drawn
  /// value is the value of the k-th smallest drawn rank, so the replicates are the same, value for
  /// value, as sorting each resample would give; the cost per resample is O(n) instead of
  /// O(n log n) (a 1000-run cell resamples ~15× faster).
  public static func ratioOfMediansReplicates(
    numerator: [Double], denominator: [Double], resamples: Int = defaultResamples,
    seed: UInt64 = defaultSeed
  ) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var out: [Double] = []
    out.reserveCapacity(resamples)
    var a = RankedSample(numerator)
    var b = RankedSample(denominator)
    for _ in 0..<Swift.max(1, resamples) {
      let top = a.resampledMedian(&rng)
      let bottom = b.resampledMedian(&rng)
      let ratio = top / bottom
      if ratio.isFinite || (top == .infinity && bottom.isFinite && bottom > 0) { out.append(ratio) }
    }
    out.sort()
    return out
  }

  /// A sample prepared for resampling medians by counting ranks.
  private struct RankedSample {
    /// The values, ascending.
    let sorted: [Double]
    /// `rank[i]`: the position of the sample's i-th value in `sorted`.
    let rank: [Int]
    /// How many draws landed on each rank (reset for each resample).
    var counts: [Int]

    init(_ values: [Double]) {
      let order = values.indices.sorted { values[$0] < values[$1] }
      var rank = [Int](repeating: 0, count: values.count)
      for (position, index) in order.enumerated() { rank[index] = position }
      self.sorted = order.map { values[$0] }
      self.rank = rank
      self.counts = [Int](repeating: 0, count: values.count)
    }

    /// Draws n indices with replacement (in the order a value-by-value resample draws them) and
    /// returns the median of the drawn values.
    mutating func resampledMedian(_ rng: inout SplitMix64) -> Double {
      let n = rank.count
      return sorted.withUnsafeBufferPointer { sorted in
        rank.withUnsafeBufferPointer { rank in
          counts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            for _ in 0..<n { counts[rank[rng.nextIndex(below: n)]] &+= 1 }
            // The k-th smallest draws (0-based): k = n/2 for an odd n; n/2 − 1 and n/2 for an
            // even n. The running count passes each; the loops test only that (a branch that
            // is predictable), not whether a rank was drawn at all (which is not).
            let high = n / 2
            let low = n % 2 == 1 ? high : high - 1
            var seen = counts[0]
            var r = 0
            while seen <= low {
              r += 1
              seen &+= counts[r]
            }
            let lowValue = sorted[r]
            guard n % 2 == 0 else { return lowValue }
            while seen <= high {
              r += 1
              seen &+= counts[r]
            }
            return (lowValue + sorted[r]) / 2
          }
        }
      }
    }
  }

  /// The percentile interval of replicates that are already sorted.
  public static func percentileInterval(sortedReplicates: [Double], level: Double) -> ConfidenceInterval {
    let tail = (1 - level) / 2
    return ConfidenceInterval(
      lower: Statistics.percentile(sorted: sortedReplicates, tail),
      upper: Statistics.percentile(sorted: sortedReplicates, 1 - tail), level: level)
  }
}
