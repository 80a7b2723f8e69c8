/// `XMLCheck`'s pass over a document's scalars, left to right: text and references, markup
/// skipped whole (`<?…?>`, comments, CDATA, declarations), and the elements still open.
struct XMLScanner {
  /// Why the document is not well-formed.
  struct Malformed: Error {
    let why: String
    init(_ why: String) { self.why = why }
  }

  let s: [Unicode.Scalar]
  /// The elements open at the current position, outermost first.
  var open: [String] = []
  /// How many root elements were seen.
  var roots = 0

  init(_ scalars: [Unicode.Scalar]) { s = scalars }

  /// The first problem in the document, or nil when it is well-formed.
  mutating func firstProblem() -> String? {
    do throws(Malformed) {
      var i = 0
      while i < s.count { i = try step(at: i) }
    } catch {
      return error.why
    }
    if let tag = open.last { return "<\(tag)> is never closed" }
    return roots == 1 ? nil : "no root element"
  }

  /// Reads what starts at `i` (a reference, text, markup, an end tag or a start tag); the index
  /// after it.
  mutating func step(at i: Int) throws(Malformed) -> Int {
    let c = s[i]
    if c == "&" {
      guard let next = reference(at: i) else { throw Malformed("a bare & in text") }
      return next
    } else if starts("]]>", at: i) {
      throw Malformed("]]> in text")
    } else if c != "<" {
      if open.isEmpty && !c.properties.isWhitespace { throw Malformed("text outside the root element") }
      return i + 1
    } else if starts("<?", at: i) {
      return try skip(past: "?>", from: i, or: "an unclosed <?")
    } else if starts("<!--", at: i) {
      return try skip(past: "-->", from: i + 4, or: "an unclosed comment")
    } else if starts("<![CDATA[", at: i) {
      return try skip(past: "]]>", from: i, or: "an unclosed CDATA section")
    } else if starts("<!", at: i) {
      return try skip(past: ">", from: i, or: "an unclosed declaration")
    } else if starts("</", at: i) {
      return try endTag(at: i)
    } else {
      return try startTag(at: i)
    }
  }

  /// `</tag>` at `i`, closing the innermost open element; the index after it.
  mutating func endTag(at i: Int) throws(Malformed) -> Int {
    let (tag, after) = name(from: i + 2)
    var k = after
    while k < s.count, s[k].properties.isWhitespace { k += 1 }
    guard k < s.count, s[k] == ">" else { throw Malformed("a malformed end tag </\(tag)") }
    guard open.last == tag else { throw Malformed("</\(tag)> closes <\(open.last ?? "nothing")>") }
    open.removeLast()
    return k + 1
  }

  /// `<tag attributes…>` or `<tag …/>` at `i`; the index after it.
  mutating func startTag(at i: Int) throws(Malformed) -> Int {
    let (tag, after) = name(from: i + 1)
    guard !tag.isEmpty else { throw Malformed("a < that starts no tag") }
    var k = after
    var selfClosing = false
    while true {
      while k < s.count, s[k].properties.isWhitespace { k += 1 }
      guard k < s.count else { throw Malformed("an unclosed <\(tag)") }
      if s[k] == ">" { break }
      if starts("/>", at: k) {
        selfClosing = true
        k += 1
        break
      }
      k = try attribute(at: k, in: tag)
    }
    if open.isEmpty { roots += 1 }
    if roots > 1 { throw Malformed("more than one root element") }
    if !selfClosing { open.append(tag) }
    return k + 1
  }

  /// `name="value"` or `name='value'` at `k` in `<tag`: no `<` in the value, every `&` a
  /// reference; the index after the closing quote.
  func attribute(at k: Int, in tag: String) throws(Malformed) -> Int {
    let (attribute, end) = name(from: k)
    guard !attribute.isEmpty, end < s.count, s[end] == "=", end + 1 < s.count,
      s[end + 1] == "\"" || s[end + 1] == "'"
    else { throw Malformed("a malformed attribute in <\(tag)") }
    let quote = s[end + 1]
    var k = end + 2
    while k < s.count, s[k] != quote {
      if s[k] == "<" { throw Malformed("a < in attribute \(attribute) of <\(tag)") }
      if s[k] == "&" {
        guard let next = reference(at: k) else {
          throw Malformed("a bare & in attribute \(attribute) of <\(tag)")
        }
        k = next
      } else {
        k += 1
      }
    }
    guard k < s.count else { throw Malformed("an unclosed attribute \(attribute) of <\(tag)") }
    return k + 1
  }

  func starts(_ text: String, at j: Int) -> Bool {
    let t = Array(text.unicodeScalars)
    return j + t.count <= s.count && Array(s[j..<(j + t.count)]) == t
  }

  /// The index after the first `end` from `j`; `problem` when there is none.
  func skip(past end: String, from j: Int, or problem: String) throws(Malformed) -> Int {
    var k = j
    while k < s.count {
      if starts(end, at: k) { return k + end.unicodeScalars.count }
      k += 1
    }
    throw Malformed(problem)
  }

  /// The index after a valid `&…;` at `j` (a predefined entity or a character reference), or nil.
  func reference(at j: Int) -> Int? {
    guard let semi = s[j...].prefix(12).firstIndex(of: ";") else { return nil }
    let body = String(String.UnicodeScalarView(s[(j + 1)..<semi]))
    if ["amp", "lt", "gt", "quot", "apos"].contains(body) { return semi + 1 }
    if body.hasPrefix("#x"), body.count > 2,
      UInt32(body.dropFirst(2), radix: 16).map(XMLCheck.isCharacter) == true
    {
      return semi + 1
    }
    if body.hasPrefix("#"), body.count > 1, UInt32(body.dropFirst()).map(XMLCheck.isCharacter) == true {
      return semi + 1
    }
    return nil
  }

  /// The name (letters, digits, `-_:.`) from `j`, and the index after it.
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
}
