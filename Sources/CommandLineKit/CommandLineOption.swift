/// One row of a command's option table, as `--help` shows it: an ``Option`` or a ``Flag``.
package protocol CommandLineOption: Sendable {
  /// `--runs`.
  var name: String { get }
  /// The value's placeholder (`N`, `FILE`), or nil for a flag.
  var valueName: String? { get }
  /// One line of help.
  var help: String { get }
  /// The default, as `--help` shows it, or nil for none.
  var defaultText: String? { get }
}
