/// A small XML 1.0 well-formedness check for the reports bench writes (SVG, JUnit): only
/// characters XML allows, every `&` a known entity or a character reference, `]]>` never in
/// text, attribute values quoted without `<`, and elements properly nested under one root.
/// Enough to catch text from an app under test reaching a report unescaped.
enum XMLCheck {
  static func problems(in document: String, name: String) -> [String] {
    if let why = why(document) { return ["\(name) is not well-formed XML: \(why)"] }
    return []
  }

  static func why(_ document: String) -> String? {
    let s = Array(document.unicodeScalars)
    for c in s where !allowed(c) { return "character U+\(String(c.value, radix: 16, uppercase: true))" }
    var open: [String] = []
    var roots = 0
    var i = 0
    func starts(_ text: String, at j: Int) -> Bool {
      let t = Array(text.unicodeScalars)
      return j + t.count <= s.count && Array(s[j..<(j + t.count)]) == t
    }
    func skip(past end: String, from j: Int) -> Int? {
      var k = j
      while k < s.count {
        if starts(end, at: k) { return k + end.unicodeScalars.count }
        k += 1
      }
      return nil
    }
    func reference(at j: Int) -> Int? {  // index after a valid `&…;`, or nil
      guard let semi = s[j...].prefix(12).firstIndex(of: ";") else { return nil }
      let body = String(String.UnicodeScalarView(s[(j + 1)..<semi]))
      if ["amp", "lt", "gt", "quot", "apos"].contains(body) { return semi + 1 }
      if body.hasPrefix("#x"), body.count > 2, UInt32(body.dropFirst(2), radix: 16).map(isCharacter) == true {
        return semi + 1
      }
      if body.hasPrefix("#"), body.count > 1, UInt32(body.dropFirst()).map(isCharacter) == true {
        return semi + 1
      }
      return nil
    }
    func name(from j: Int) -> (String, Int) {
      var k = j
      while k < s.count,
        s[k].properties.isAlphabetic || s[k].properties.numericType != nil
          || "-_:.".unicodeScalars.contains(s[k])
      {
        k += 1
      }
      return (String(String.UnicodeScalarView(s[j..<k])), k)
    }
    while i < s.count {
      let c = s[i]
      if c == "&" {
        guard let next = reference(at: i) else { return "a bare & in text" }
        i = next
      } else if starts("]]>", at: i) {
        return "]]> in text"
      } else if c != "<" {
        if open.isEmpty && !c.properties.isWhitespace { return "text outside the root element" }
        i += 1
      } else if starts("<?", at: i) {
        guard let next = skip(past: "?>", from: i) else { return "an unclosed <?" }
        i = next
      } else if starts("<!--", at: i) {
        guard let next = skip(past: "-->", from: i + 4) else { return "an unclosed comment" }
        i = next
      } else if starts("<![CDATA[", at: i) {
        guard let next = skip(past: "]]>", from: i) else { return "an unclosed CDATA section" }
        i = next
      } else if starts("<!", at: i) {
        guard let next = skip(past: ">", from: i) else { return "an unclosed declaration" }
        i = next
      } else if starts("</", at: i) {
        let (tag, after) = name(from: i + 2)
        var k = after
        while k < s.count, s[k].properties.isWhitespace { k += 1 }
        guard k < s.count, s[k] == ">" else { return "a malformed end tag </\(tag)" }
        guard open.last == tag else { return "</\(tag)> closes <\(open.last ?? "nothing")>" }
        open.removeLast()
        i = k + 1
      } else {
        let (tag, after) = name(from: i + 1)
        guard !tag.isEmpty else { return "a < that starts no tag" }
        var k = after
        var selfClosing = false
        while true {
          while k < s.count, s[k].properties.isWhitespace { k += 1 }
          guard k < s.count else { return "an unclosed <\(tag)" }
          if s[k] == ">" { break }
          if starts("/>", at: k) {
            selfClosing = true
            k += 1
            break
          }
          let (attribute, end) = name(from: k)
          guard !attribute.isEmpty, end < s.count, s[end] == "=", end + 1 < s.count,
            s[end + 1] == "\"" || s[end + 1] == "'"
          else { return "a malformed attribute in <\(tag)" }
          let quote = s[end + 1]
          k = end + 2
          while k < s.count, s[k] != quote {
            if s[k] == "<" { return "a < in attribute \(attribute) of <\(tag)" }
            if s[k] == "&" {
              guard let next = reference(at: k) else {
                return "a bare & in attribute \(attribute) of <\(tag)"
              }
              k = next
            } else {
              k += 1
            }
          }
          guard k < s.count else { return "an unclosed attribute \(attribute) of <\(tag)" }
          k += 1
        }
        if open.isEmpty { roots += 1 }
        if roots > 1 { return "more than one root element" }
        if !selfClosing { open.append(tag) }
        i = k + 1
      }
    }
    if let tag = open.last { return "<\(tag)> is never closed" }
    return roots == 1 ? nil : "no root element"
  }

  static func allowed(_ c: Unicode.Scalar) -> Bool { isCharacter(c.value) }

  /// XML 1.0's `Char`: tab, newline, carriage return, and U+0020 on, except U+FFFE and U+FFFF.
  static func isCharacter(_ v: UInt32) -> Bool {
    v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) || (v >= 0xE000 && v <= 0xFFFD)
      || (v >= 0x10000 && v <= 0x10FFFF)
  }
}
