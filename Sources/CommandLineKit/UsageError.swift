import SystemCalls

/// A bad command line or bad input: one line for stderr, exit status 2.
package struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The one line, without the program name.
  package var message: String
  /// Creates the error. The message stays one line whatever it quotes: a newline, a carriage
  /// return or another control character (from a file, an argument or an app's output) is
  /// written as an escape (`\n`, `\u{1B}`), so it can neither split the line nor drive the terminal.
  package init(_ message: String) { self.message = Self.oneLine(message) }
  /// The one line.
  package var description: String { message }

  /// `text` with line breaks and control characters (except tab) escaped
  /// (`String.escapedAsOneLine`).
  package static func oneLine(_ text: String) -> String { text.escapedAsOneLine }
}
