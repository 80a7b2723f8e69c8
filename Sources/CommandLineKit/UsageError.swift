/// A bad command line or bad input: one line for stderr, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The one line, without the program name.
  public var message: String
  /// Creates the error. The message stays one line whatever it quotes: a newline, a carriage
  /// return or another control character (from a file, an argument or an app's output) is
  /// written as an escape (`\n`, `\u{1B}`), so it can neither split the line nor drive the terminal.
  public init(_ message: String) { self.message = Self.oneLine(message) }
  /// The one line.
  public var description: String { message }

  /// `text` with line breaks and control characters (except tab) escaped.
  public static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// C0 controls but tab, DEL, C1 controls, and the Unicode line and paragraph separators.
  static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return (v < 0x20 && v != 0x09) || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
  }
}
