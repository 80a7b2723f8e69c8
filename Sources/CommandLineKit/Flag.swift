/// An option without a value (`--quiet`): present or not.
package struct Flag: CommandLineOption {
  /// `--quiet`.
  package let name: String
  /// One line of help.
  package let help: String
  /// Always nil: a flag takes no value.
  package var valueName: String? { nil }
  /// Always nil: a flag's default is its absence.
  package var defaultText: String? { nil }

  /// Creates a flag.
  package init(_ name: String, _ help: String) {
    self.name = name
    self.help = help
  }
}
