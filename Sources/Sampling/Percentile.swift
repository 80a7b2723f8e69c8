/// The one percentile definition of FirstFrame: linear interpolation between closest ranks
/// (Hyndman & Fan type 7, the default of NumPy's `percentile`, R's `quantile` and Excel's
/// `PERCENTILE.INC`). For sorted samples x₀…xₙ₋₁ and p in [0, 1], h = (n − 1)·p and the result is
/// x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). So p50 of an even count is the mean of the middle two,
/// p0 is the minimum and p100 the maximum. The results tables, the gates and the probe's
/// calibration bound all use it, so a p99 means the same everywhere.
///
/// Samples may hold `+∞` (a failed run ranked after every finished one, issue 25): a percentile
/// that lands on one, or between a finished value and one, is `+∞`; a percentile on a finished
/// value is that value (never `x + 0·∞`, which is NaN).
public enum Percentile {
  /// The type-7 percentile `p` (0…1, clamped) of samples that are already sorted ascending, in
  /// the samples' unit; NaN when empty.
  public static func type7(sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    guard sorted.count > 1 else { return sorted[0] }
    let clamped = min(1, max(0, p))
    let h = Double(sorted.count - 1) * clamped
    let lo = Int(h.rounded(.down))
    let hi = min(lo + 1, sorted.count - 1)
    return interpolate(sorted[lo], sorted[hi], fraction: h - Double(lo))
  }

  /// `low + fraction·(high − low)` for `low ≤ high` and `fraction` in [0, 1), the type-7 step,
  /// with infinities kept honest: `low` itself when `fraction` is 0 or the two are equal; an
  /// infinite end otherwise gives that end (−∞ or +∞); NaN only between −∞ and +∞. For finite
  /// values it is the same double as the plain formula.
  public static func interpolate(_ low: Double, _ high: Double, fraction: Double) -> Double {
    if fraction == 0 || low == high { return low }
    if low.isInfinite || high.isInfinite {
      return low.isInfinite && high.isInfinite ? .nan : (low.isInfinite ? low : high)
    }
    return low + fraction * (high - low)
  }
}
