/// The one percentile definition of FirstFrame: linear interpolation between closest ranks
/// (Hyndman & Fan type 7, the default of NumPy's `percentile`, R's `quantile` and Excel's
/// `PERCENTILE.INC`). For sorted samples x₀…xₙ₋₁ and p in [0, 1], h = (n − 1)·p and the result is
/// x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋₊₁ − x⌊h⌋). So p50 of an even count is the mean of the middle two,
/// p0 is the minimum and p100 the maximum. The results tables, the gates and the probe's
/// calibration bound all use it, so a p99 means the same everywhere.
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
    // On a rank, or between equal values, the value itself: a failed run ranks as +∞
    // (`rankedSamples`), and interpolating between two would give ∞ − ∞ = NaN.
    if h == Double(lo) || sorted[lo] == sorted[hi] { return sorted[lo] }
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }
}
