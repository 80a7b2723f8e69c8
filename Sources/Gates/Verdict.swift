/// What a comparison concludes about the new sample relative to the reference one.
public enum Verdict: String, Sendable, Hashable, Codable, CaseIterable {
  /// Significantly faster (p < α) by more than the noise threshold.
  case faster
  /// Significantly slower (p < α) by more than the noise threshold.
  case slower
  /// Either not significant or within the noise threshold.
  case noSignificantDifference = "no significant difference"
  /// Fewer than two samples on a side, or no ratio to read (both medians beyond the run
  /// timeout, or 0 ms over 0 ms): nothing can be said.
  case notEnoughData = "not enough data"

  /// Decides from the ratio new/reference of medians and the rank test's p-value.
  /// - Parameters:
  ///   - ratio: median(new) / median(reference); < 1 means the new one is faster.
  ///   - threshold: the noise threshold as a fraction (0.02 = 2 %): slower needs ratio > 1 + threshold,
  ///     faster needs ratio < 1 − threshold.
  ///   - alpha: the significance level for the two-sided p-value.
  ///
  /// A ratio of +∞ (the new median run did not reach the phase within the run timeout) is slower
  /// when significant; 0 (the reference's did not) is faster; NaN is not enough data.
  public static func decide(ratio: Double, pValue: Double, threshold: Double, alpha: Double, enoughData: Bool)
    -> Verdict
  {
    guard enoughData, !ratio.isNaN else { return .notEnoughData }
    guard pValue < alpha else { return .noSignificantDifference }
    if ratio > 1 + threshold { return .slower }
    if ratio < 1 - threshold { return .faster }
    return .noSignificantDifference
  }
}
