extension String {
  /// The text as one line, whatever it quotes: a newline, a carriage return or another control
  /// character (from a file, an argument or an app's output) is written as an escape (`\n`,
  /// `\u{1B}`), so it can neither split an error line nor drive the terminal (STYLE.md rule 4).
  /// Tab stays.
  public var escapedAsOneLine: String {
    guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
    var out = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case _ where Self.needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
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
