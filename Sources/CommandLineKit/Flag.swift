/// An option without a value (`--quiet`): present or not.
public struct Flag: CommandLineOption {
  /// `--quiet`.
  public let name: String
  /// One line of help.
  public let help: String
  /// Always nil: a flag takes no value.
  public var valueName: String? { nil }
  /// Always nil: a flag's default is its absence.
  public var defaultText: String? { nil }

  /// Creates a flag.
  public init(_ name: String, _ help: String) {
    self.name = name
    self.help = help
  }
}
