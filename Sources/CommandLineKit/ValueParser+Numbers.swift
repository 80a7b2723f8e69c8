extension ValueParser where Value == Int {
  /// A whole number in `range`. A number too large for `Int` is reported against the bound, like
  /// any other number outside it ("--runs must be at most 100000, not 99999999999999999999").
  package static func integer(in range: ClosedRange<Int>) -> ValueParser<Int> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> Int in
        guard let value = Int(text) else {
          // Digits that do not fit in an Int are a number beyond the bounds, not a typo.
          let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : Substring(text)
          guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw UsageError("\(name) wants a whole number, not '\(text)'")
          }
          throw text.hasPrefix("-")
            ? UsageError("\(name) must be at least \(range.lowerBound), not \(text)")
            : UsageError("\(name) must be at most \(range.upperBound), not \(text)")
        }
        guard value >= range.lowerBound else {
          throw UsageError("\(name) must be at least \(range.lowerBound), not \(value)")
        }
        guard value <= range.upperBound else {
          throw UsageError("\(name) must be at most \(range.upperBound), not \(value)")
        }
        return value
      }, describe: { String($0) })
  }
}

extension ValueParser where Value == Double {
  /// A finite number in `range` ("--refresh-hz must be at most 1000, not 5000").
  package static func number(in range: NumberRange) -> ValueParser<Double> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> Double in
        guard let value = Double(text), !value.isNaN else {
          throw UsageError("\(name) wants a number, not '\(text)'")
        }
        if let violation = range.violation(value) {
          throw UsageError("\(name) must be \(violation), not \(text)")
        }
        guard value.isFinite else { throw UsageError("\(name) wants a number, not '\(text)'") }
        return value
      }, describe: { NumberRange.format($0) })
  }
}
