import Foundation
import ResultsSchema
import Sampling

/// Descriptive statistics over run samples (milliseconds in, milliseconds out).
///
/// **Percentiles** are `Sampling`'s one definition (``Percentile/type7(sorted:_:)``: linear
/// interpolation between closest ranks, Hyndman & Fan type 7). With few runs, p99 is close to
/// the maximum: read it as "the worst run", not as a tail estimate.
public enum Statistics {
  /// The type-7 percentile `p` (0…1) of samples that are already sorted ascending; NaN when empty.
  public static func percentile(sorted: [Double], _ p: Double) -> Double {
    Percentile.type7(sorted: sorted, p)
  }

  /// The type-7 percentile `p` (0…1) of unsorted samples; NaN when empty.
  public static func percentile(_ samples: [Double], _ p: Double) -> Double {
    percentile(sorted: samples.sorted(), p)
  }

  /// The median (mean of the middle two for an even count); NaN when empty.
  public static func median(_ samples: [Double]) -> Double {
    percentile(sorted: samples.sorted(), 0.5)
  }

  /// The arithmetic mean; NaN when empty.
  public static func mean(_ samples: [Double]) -> Double {
    guard !samples.isEmpty else { return .nan }
    return samples.reduce(0, +) / Double(samples.count)
  }

  /// The sample standard deviation (n − 1 in the denominator); 0 for fewer than two samples.
  public static func standardDeviation(_ samples: [Double]) -> Double {
    guard samples.count > 1 else { return 0 }
    let m = mean(samples)
    let ss = samples.reduce(0) { $0 + ($1 - m) * ($1 - m) }
    return (ss / Double(samples.count - 1)).squareRoot()
  }

  /// The median absolute deviation from the median (unscaled); NaN when empty.
  public static func medianAbsoluteDeviation(_ samples: [Double]) -> Double {
    guard !samples.isEmpty else { return .nan }
    let med = median(samples)
    return median(samples.map { abs($0 - med) })
  }

  /// A robust estimate of the standard deviation: 1.4826 · MAD (consistent for normal data).
  /// Falls back to the sample standard deviation when the MAD is 0 (more than half the samples equal).
  public static func robustStandardDeviation(_ samples: [Double]) -> Double {
    let mad = medianAbsoluteDeviation(samples)
    if mad.isFinite, mad > 0 { return 1.4826 * mad }
    return standardDeviation(samples)
  }

  /// How many samples are outliers by the modified z-score of Iglewicz & Hoaglin:
  /// |x − median| / (1.4826 · MAD) > 3.5. When the MAD is 0 (more than half the samples are
  /// identical) the scale falls back to 1.2533 · mean absolute deviation from the median; when
  /// that is 0 too, every sample is equal and none is an outlier.
  public static func outlierCount(_ samples: [Double]) -> Int {
    guard samples.count > 2 else { return 0 }
    let med = median(samples)
    let deviations = samples.map { abs($0 - med) }
    var scale = 1.4826 * median(deviations)
    if !(scale > 0) { scale = 1.2533 * mean(deviations) }
    guard scale > 0 else { return 0 }
    return deviations.filter { $0 / scale > 3.5 }.count
  }

  /// The distribution of one phase in one cell, for `results.json`: n, min, p50, p90, p99, max,
  /// mean, sample standard deviation, MAD outlier count and the samples in run order.
  /// Units are those of the samples (milliseconds in FirstFrame). Non-finite samples are dropped.
  /// An empty input gives n = 0 and zeros (JSON cannot hold NaN).
  public static func summarize(_ samples: [Double]) -> BenchResults.PhaseSummary {
    let finite = samples.filter(\.isFinite)
    guard !finite.isEmpty else {
      return BenchResults.PhaseSummary(
        n: 0, min: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0, stddev: 0, outliers: 0, samples: [])
    }
    let sorted = finite.sorted()
    return BenchResults.PhaseSummary(
      n: finite.count, min: sorted[0], p50: percentile(sorted: sorted, 0.5),
      p90: percentile(sorted: sorted, 0.9), p99: percentile(sorted: sorted, 0.99),
      max: sorted[sorted.count - 1], mean: mean(finite), stddev: standardDeviation(finite),
      outliers: outlierCount(finite), samples: finite)
  }
}
