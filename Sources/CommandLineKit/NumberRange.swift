/// The numbers a ``ValueParser/number(in:)`` option accepts: a lower and an upper bound, each
/// inclusive or exclusive. Whatever the bounds, a number must be finite.
package struct NumberRange: Sendable, Equatable {
  /// The smallest number accepted (or the number every value must exceed).
  package var lower: Double
  /// Whether `lower` itself is accepted.
  package var includesLower: Bool
  /// The largest number accepted (or the number every value must stay below).
  package var upper: Double
  /// Whether `upper` itself is accepted.
  package var includesUpper: Bool

  /// `lower ≤ x ≤ upper`.
  package init(atLeast lower: Double, atMost upper: Double) {
    (self.lower, includesLower, self.upper, includesUpper) = (lower, true, upper, true)
  }

  /// `lower < x ≤ upper`.
  package init(greaterThan lower: Double, atMost upper: Double) {
    (self.lower, includesLower, self.upper, includesUpper) = (lower, false, upper, true)
  }

  /// `lower < x < upper`.
  package init(greaterThan lower: Double, below upper: Double) {
    (self.lower, includesLower, self.upper, includesUpper) = (lower, false, upper, false)
  }

  /// `lower ≤ x`, any finite number above.
  package init(atLeast lower: Double) {
    (self.lower, includesLower, self.upper, includesUpper) = (lower, true, .infinity, true)
  }

  /// Why `value` is outside the range ("at least 1", "below 1"), or nil when it is inside.
  func violation(_ value: Double) -> String? {
    if includesLower ? value < lower : value <= lower {
      return (includesLower ? "at least " : "greater than ") + Self.format(lower)
    }
    if includesUpper ? value > upper : value >= upper {
      return (includesUpper ? "at most " : "below ") + Self.format(upper)
    }
    return nil
  }

  /// `60`, `0.05`: a whole number without `.0`, as `--help` and error lines show numbers.
  static func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }
}
