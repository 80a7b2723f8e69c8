/// A command line taken apart by ``CommandLineSpec/parse(_:)``: each option's text (the last
/// occurrence wins), the flags given and the positional arguments. Typed values come from the
/// options themselves: `try parsed.value(Self.runs)`.
package struct ParsedOptions: Sendable {
  /// The command (`bench compare`), for error lines.
  package let command: String
  /// The text given for each option, by name (`--runs` → `"20"`).
  package internal(set) var values: [String: String] = [:]
  /// Every text given for each option, in order, by name: what a repeatable option
  /// (`--app-config A=… --app-config B=…`) reads with ``values(_:)``.
  package internal(set) var occurrences: [String: [String]] = [:]
  /// The flags given, by name.
  package internal(set) var flags: Set<String> = []
  /// The positional arguments, in order.
  package internal(set) var positional: [String] = []
  /// Whether `--help` (or `-h`) was given.
  package internal(set) var helpRequested = false

  /// An empty command line for `command`.
  package init(command: String) { self.command = command }

  /// The value of `option`: parsed from its text when given, its default otherwise.
  /// - Throws: `UsageError` when the text does not parse or is out of bounds.
  package func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
    guard let text = values[option.name] else { return option.defaultValue }
    return try option.parse(text)
  }

  /// Every value given for the repeatable `option`, in command-line order (none when absent).
  /// - Throws: `UsageError` for the first text that does not parse.
  package func values<Value>(_ option: Option<Value?>) throws(UsageError) -> [Value] {
    var all: [Value] = []
    for text in occurrences[option.name] ?? [] {
      if let value = try option.parse(text) { all.append(value) }
    }
    return all
  }

  /// Whether `option` was given (as opposed to taking its default).
  package func isGiven(_ option: some CommandLineOption) -> Bool {
    values[option.name] != nil || flags.contains(option.name)
  }

  /// Whether `flag` was given.
  package func isSet(_ flag: Flag) -> Bool { flags.contains(flag.name) }

  /// Checks that no positional argument was given.
  /// - Throws: `UsageError` naming the first one.
  package func expectNoArguments() throws(UsageError) {
    if let extra = positional.first {
      throw UsageError("unexpected argument '\(extra)' (see \(command) --help)")
    }
  }
}
