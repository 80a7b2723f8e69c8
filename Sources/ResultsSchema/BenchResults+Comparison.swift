extension BenchResults {
  /// Configuration `a` against `b` for one phase and condition.
  public struct Comparison: Codable, Sendable, Hashable {
    /// The phase compared, e.g. `first_frame_observed`.
    public var phase: String
    /// The condition both cells ran under.
    public var condition: String
    /// The first configuration, e.g. `deferred`.
    public var a: String
    /// The configuration `a` is measured against, e.g. `eager`.
    public var b: String
    /// `ratio_p50`: median(a) / median(b) of the phase's samples: a ratio of milliseconds, so unitless; below 1
    /// means `a` is faster.
    public var ratioP50: Double
    /// Bootstrap 95 % confidence interval of the ratio: `[lower, upper]`, unitless; empty when it
    /// has no upper bound (failed runs rank after every finished run, so a resampled median of
    /// `a` can be +∞, which JSON cannot hold).
    public var ci95: [Double]
    /// `p_value`: the Mann–Whitney U two-sided p-value.
    public var pValue: Double
    /// `faster`, `slower`, `no significant difference` or `not enough data` (a relative to b).
    public var verdict: String?
    /// The JSON keys: `ratio_p50` and `p_value` keep their snake_case names in `results.json`.
    enum CodingKeys: String, CodingKey {
      case phase, condition, a, b, ci95, verdict
      case ratioP50 = "ratio_p50"
      case pValue = "p_value"
    }

    /// Creates a comparison.
    public init(
      phase: String, condition: String, a: String, b: String, ratioP50: Double, ci95: [Double],
      pValue: Double, verdict: String? = nil
    ) {
      self.phase = phase
      self.condition = condition
      self.a = a
      self.b = b
      self.ratioP50 = ratioP50
      self.ci95 = ci95
      self.pValue = pValue
      self.verdict = verdict
    }
  }
}
