/// How an option's text becomes a typed value, and how a value reads in `--help`. The factories
/// (``integer(in:)``, ``number(in:)``, ``list(of:)-(_)``, ``choice(of:)``, ``text``, ``fileName``,
/// ``folderName``, ``converting(describe:_:)``) check bounds and names and throw the one line a person reads.
package struct ValueParser<Value>: Sendable {
  /// Parses `text`, given for the option named `name` (for the error line).
  package let parse: @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value
  /// `value` as `--help` shows a default, or nil to show none.
  package let describe: @Sendable (_ value: Value) -> String?

  /// Creates a parser from its two functions.
  package init(
    parse: @escaping @Sendable (_ text: String, _ name: String) throws(UsageError) -> Value,
    describe: @escaping @Sendable (_ value: Value) -> String?
  ) {
    self.parse = parse
    self.describe = describe
  }

  /// The same parser for an option whose absence means nil; nil reads as no default.
  package var optional: ValueParser<Value?> {
    let parse = self.parse
    let describe = self.describe
    return ValueParser<Value?>(
      parse: { (text, name) throws(UsageError) -> Value? in try parse(text, name) },
      describe: { $0.flatMap(describe) })
  }

  /// A parser from a converting initialiser whose error is already one line for a person
  /// (`LaunchConfiguration(parsing:)`); the line is kept as it is.
  package static func converting<Failure: Error & CustomStringConvertible>(
    describe: @escaping @Sendable (_ value: Value) -> String? = { "\($0)" },
    _ convert: @escaping @Sendable (_ text: String) throws(Failure) -> Value
  ) -> ValueParser<Value> {
    ValueParser(
      parse: { (text, _) throws(UsageError) -> Value in
        do throws(Failure) {
          return try convert(text)
        } catch {
          throw UsageError(error.description)
        }
      }, describe: describe)
  }
}

extension ValueParser where Value == String {
  /// Any text, as given (a command).
  package static var text: ValueParser<String> {
    ValueParser(parse: { (text, _) in text }, describe: { $0 })
  }

  /// A file's name or path, not empty ("--svg wants a file name, not an empty one"): an empty
  /// one would name the working folder.
  package static var fileName: ValueParser<String> { nonEmpty("a file name") }

  /// A folder's name or path, not empty ("--out wants a folder name, not an empty one").
  package static var folderName: ValueParser<String> { nonEmpty("a folder name") }

  private static func nonEmpty(_ what: String) -> ValueParser<String> {
    ValueParser(
      parse: { (text, name) throws(UsageError) -> String in
        guard !text.isEmpty else { throw UsageError("\(name) wants \(what), not an empty one") }
        return text
      }, describe: { $0 })
  }
}
