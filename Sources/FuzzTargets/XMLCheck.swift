/// A small XML 1.0 well-formedness check for the reports bench writes (SVG, JUnit): only
/// characters XML allows, every `&` a known entity or a character reference, `]]>` never in
/// text, attribute values quoted without `<`, and elements properly nested under one root.
/// Enough to catch text from an app under test reaching a report unescaped.
enum XMLCheck {
  static func problems(in document: String, name: String) -> [String] {
    if let why = why(document) { return ["\(name) is not well-formed XML: \(why)"] }
    return []
  }

  /// Why `document` is not well-formed (the first problem found), or nil when it is.
  static func why(_ document: String) -> String? {
    let s = Array(document.unicodeScalars)
    for c in s where !allowed(c) { return "character U+\(String(c.value, radix: 16, uppercase: true))" }
    var scanner = XMLScanner(s)
    return scanner.firstProblem()
  }

  static func allowed(_ c: Unicode.Scalar) -> Bool { isCharacter(c.value) }

  /// XML 1.0's `Char`: tab, newline, carriage return, and U+0020 on, except U+FFFE and U+FFFF.
  static func isCharacter(_ v: UInt32) -> Bool {
    v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD)
      || (v >= 0x10000 && v <= 0x10FFFF)
  }
}
