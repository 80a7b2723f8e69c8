import Foundation
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
}
