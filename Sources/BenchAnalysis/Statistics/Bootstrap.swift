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
  /// B resamples drawn, non-finite ratios (a zero denominator median) dropped, so there may be
  /// fewer than B (`ratioOfMediansInterval` counts them).
  public static func ratioOfMediansReplicates(
    numerator: [Double], denominator: [Double], resamples: Int = defaultResamples,
    seed: UInt64 = defaultSeed
  ) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var out: [Double] = []
    out.reserveCapacity(resamples)
    var bufA = [Double](repeating: 0, count: numerator.count)
    var bufB = [Double](repeating: 0, count: denominator.count)
    numerator.withUnsafeBufferPointer { num in
      denominator.withUnsafeBufferPointer { den in
        bufA.withUnsafeMutableBufferPointer { a in
          bufB.withUnsafeMutableBufferPointer { b in
            for _ in 0..<Swift.max(1, resamples) {
              for i in 0..<a.count { a[i] = num[rng.nextIndex(below: num.count)] }
              for i in 0..<b.count { b[i] = den[rng.nextIndex(below: den.count)] }
              let ratio = median(sorting: a) / median(sorting: b)
              if ratio.isFinite { out.append(ratio) }
            }
          }
        }
      }
    }
    out.sort()
    return out
  }

  /// The percentile interval of replicates that are already sorted.
  public static func percentileInterval(sortedReplicates: [Double], level: Double) -> ConfidenceInterval {
    let tail = (1 - level) / 2
    return ConfidenceInterval(
      lower: Statistics.percentile(sorted: sortedReplicates, tail),
      upper: Statistics.percentile(sorted: sortedReplicates, 1 - tail), level: level)
  }

  /// Sorts `buffer` in place (insertion sort: resamples are small) and returns its median.
  private static func median(sorting buffer: UnsafeMutableBufferPointer<Double>) -> Double {
    let n = buffer.count
    if n > 64 {
      var sortable = buffer
      sortable.sort()
    } else if n > 1 {
      for i in 1..<n {
        let v = buffer[i]
        var j = i - 1
        while j >= 0 && buffer[j] > v {
          buffer[j + 1] = buffer[j]
          j -= 1
        }
        buffer[j + 1] = v
      }
    }
    return n % 2 == 1 ? buffer[n / 2] : (buffer[n / 2 - 1] + buffer[n / 2]) / 2
  }
}
