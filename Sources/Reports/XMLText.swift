/// Escaping for XML and SVG text and attributes (internal).
enum XMLText {
  /// `&`, `<`, `>`, `"` and `'` escaped; control characters other than tab and newline dropped.
  static func escape(_ s: String) -> String {
    var out = ""
    out.reserveCapacity(s.count)
    for ch in s.unicodeScalars {
      switch ch {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      case "\t", "\n": out.unicodeScalars.append(ch)
      default: if ch.value >= 0x20 { out.unicodeScalars.append(ch) }
      }
    }
    return out
  }
}
