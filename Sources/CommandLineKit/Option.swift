/// An option that takes a value: its name, placeholder and help, its default (the value when the
/// option is absent) and how that default reads in `--help`, and the parser that turns the text
/// into a `Value` (checking its bounds). Stated once; the parser and `--help` both read it.
package struct Option<Value: Sendable>: CommandLineOption {
  /// `--runs`.
  package let name: String
  /// The value's placeholder in `--help` (`N`, `FILE`).
  package let placeholder: String
  /// One line of help.
  package let help: String
  /// The value when the option is not given.
  package let defaultValue: Value
  /// The default as `--help` shows it (`20`, `all four`), or nil to show none.
  package let defaultText: String?
  /// Turns the given text into a value, or throws the one line that says what is wrong.
  package let parser: ValueParser<Value>

  /// The placeholder (never nil: an option has a value).
  package var valueName: String? { placeholder }

  /// Creates an option. `defaultText` is how the default reads in `--help`; without it, the
  /// parser describes `defaultValue` (`20`, `deferred,eager`).
  package init(
    _ name: String, _ placeholder: String, _ help: String, default defaultValue: Value,
    shownAs defaultText: String? = nil, parser: ValueParser<Value>
  ) {
    self.name = name
    self.placeholder = placeholder
    self.help = help
    self.defaultValue = defaultValue
    self.defaultText = defaultText ?? parser.describe(defaultValue)
    self.parser = parser
  }

  /// Creates an option without a default value: nil when the option is not given.
  /// `defaultText` says in `--help` what happens then, if anything.
  package init<Wrapped: Sendable>(
    _ name: String, _ placeholder: String, _ help: String, shownAs defaultText: String? = nil,
    parser: ValueParser<Wrapped>
  ) where Value == Wrapped? {
    self.init(name, placeholder, help, default: nil, shownAs: defaultText, parser: parser.optional)
  }

  /// The value of `text` given for this option.
  /// - Throws: `UsageError` naming the option, the bound and the text.
  package func parse(_ text: String) throws(UsageError) -> Value {
    try parser.parse(text, name)
  }
}
