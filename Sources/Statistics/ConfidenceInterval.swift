/// A two-sided confidence interval.
public struct ConfidenceInterval: Sendable, Hashable, Codable {
  /// The lower bound.
  public var lower: Double
  /// The upper bound.
  public var upper: Double
  /// The confidence level, e.g. 0.95.
  public var level: Double

  /// Bootstrap resamples drawn, when the interval comes from `Bootstrap`.
  public var resamples: Int?
  /// Of `resamples`, how many gave no finite statistic and were dropped (a zero median in the
  /// denominator). When more than `Bootstrap.maximumDroppedFraction` were, the bootstrap refused:
  /// both bounds are NaN.
  public var droppedResamples: Int?

  /// Creates an interval.
  public init(
    lower: Double, upper: Double, level: Double, resamples: Int? = nil, droppedResamples: Int? = nil
  ) {
    self.lower = lower
    self.upper = upper
    self.level = level
    self.resamples = resamples
    self.droppedResamples = droppedResamples
  }

  /// Whether the bootstrap refused to give an interval because it dropped too many resamples.
  public var isRefused: Bool { (droppedResamples ?? 0) > 0 && (lower.isNaN || upper.isNaN) }

  /// Whether `value` lies inside (bounds included).
  public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

  /// `[lower, upper]`, as `results.json` stores it.
  public var array: [Double] { [lower, upper] }
}
