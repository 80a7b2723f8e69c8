extension ValueParser where Value == [String] {
  /// A comma-separated list whose items must all be in `allowed`, duplicates dropped, order kept.
  package static func list(of allowed: [String]) -> ValueParser<[String]> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> [String] in
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map {
          String($0).trimmingSpaces()
        }
        guard !items.isEmpty, !items.contains("") else {
          throw UsageError("\(name) wants a comma-separated list of \(allowed.joined(separator: ", "))")
        }
        for item in items where !allowed.contains(item) {
          throw UsageError.unknown(item, for: name, allowed: allowed)
        }
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
      }, describe: { $0.joined(separator: ",") })
  }
}

extension ValueParser {
  /// A comma-separated list of `Item`s by their raw values (`cold,warm`), each one of `allowed`
  /// (by default every case), duplicates dropped, order kept.
  package static func list<Item: RawRepresentable & CaseIterable & Sendable>(
    of allowed: [Item] = Array(Item.allCases)
  ) -> ValueParser<[Item]> where Value == [Item], Item.RawValue == String {
    let names = ValueParser<[String]>.list(of: allowed.map(\.rawValue))
    return ValueParser(
      parse: { (text, name) throws(UsageError) -> [Item] in
        try names.parse(text, name).compactMap(Item.init(rawValue:))
      }, describe: { $0.map(\.rawValue).joined(separator: ",") })
  }

}

extension ValueParser where Value: RawRepresentable & CaseIterable & Sendable, Value.RawValue == String {
  /// One value by its raw value (`table`), one of `allowed` (by default every case).
  package static func choice(of allowed: [Value] = Array(Value.allCases)) -> ValueParser<Value> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> Value in
        guard let item = Value(rawValue: text), allowed.contains(where: { $0.rawValue == text }) else {
          throw UsageError.unknown(text, for: name, allowed: allowed.map(\.rawValue))
        }
        return item
      }, describe: { $0.rawValue })
  }
}

extension UsageError {
  /// "unknown condition 'tepid' for --conditions (choose from cold, warm, relock, loaded)": the
  /// noun is the option's name without dashes and a plural s.
  static func unknown(_ item: String, for name: String, allowed: [String]) -> UsageError {
    var noun = String(name.drop(while: { $0 == "-" }).map { $0 == "-" ? " " : $0 })
    if noun.hasSuffix("s") { noun.removeLast() }
    return UsageError(
      "unknown \(noun) '\(item)' for \(name) (choose from \(allowed.joined(separator: ", ")))")
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first == " " { s.removeFirst() }
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
