/// A two-sided confidence interval.
public struct ConfidenceInterval: Sendable, Hashable, Codable {
  /// The lower bound.
  public var lower: Double
  /// The upper bound.
  public var upper: Double
  /// The confidence level, e.g. 0.95.
  public var level: Double

  /// Creates an interval.
  public init(lower: Double, upper: Double, level: Double) {
    self.lower = lower
    self.upper = upper
    self.level = level
  }

  /// Whether `value` lies inside (bounds included).
  public func contains(_ value: Double) -> Bool { lower <= value && value <= upper }

  /// `[lower, upper]`, as `results.json` stores it.
  public var array: [Double] { [lower, upper] }
}
