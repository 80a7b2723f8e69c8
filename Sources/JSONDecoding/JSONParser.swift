/// A recursive-descent JSON parser over UTF-8 bytes (RFC 8259): strict number syntax, escapes
/// with surrogate pairs, no control characters in strings, valid UTF-8 only, nesting bounded.
struct JSONParser {
  let bytes: UnsafeBufferPointer<UInt8>
  let maxDepth: Int
  var index = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  /// One value with only whitespace around it (and an optional UTF-8 byte order mark before it).
  mutating func parseDocument() throws(JSONParseError) -> JSONValue {
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    skipWhitespace()
    let value = try parseValue()
    skipWhitespace()
    guard index == bytes.count else { throw failure("unexpected text after the JSON value") }
    return value
  }

  func failure(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

  var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
  }

  mutating func parseValue() throws(JSONParseError) -> JSONValue {
    guard let byte = current else { throw failure("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject()
    case UInt8(ascii: "["): return try parseArray()
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw failure("unexpected character \(Self.describe(byte))")
    }
  }

  mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
    let count = literal.utf8CodeUnitCount
    guard bytes.count - index >= count else { throw failure("unexpected end of input") }
    for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
      throw failure("expected \(literal)")
    }
    index += count
  }

  mutating func enter() throws(JSONParseError) {
    depth += 1
    guard depth <= maxDepth else { throw failure("nested deeper than \(maxDepth) levels") }
  }

  mutating func parseObject() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
      let key = try parseString()
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
      index += 1
      skipWhitespace()
      let value = try parseValue()
      if members[key] == nil { members[key] = value }  // the first of repeated keys, as Foundation
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw failure("expected ',' or '}' in an object")
      }
    }
  }

  mutating func parseArray() throws(JSONParseError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue())
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw failure("expected ',' or ']' in an array")
      }
    }
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as its text.
  mutating func parseNumber() throws(JSONParseError) -> String {
    let start = index
    if current == UInt8(ascii: "-") { index += 1 }
    guard let first = current, Self.isDigit(first) else { throw failure("expected a digit") }
    index += 1
    if first != UInt8(ascii: "0") { skipDigits() }
    if current == UInt8(ascii: ".") {
      index += 1
      guard let digit = current, Self.isDigit(digit) else { throw failure("expected a digit after '.'") }
      skipDigits()
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      index += 1
      if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
      guard let digit = current, Self.isDigit(digit) else {
        throw failure("expected a digit in the exponent")
      }
      skipDigits()
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  mutating func skipDigits() {
    while let byte = current, Self.isDigit(byte) { index += 1 }
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

  /// A string from its opening quote to its closing one, unescaped.
  mutating func parseString() throws(JSONParseError) -> String {
    let start = index
    index += 1
    var utf8: [UInt8] = []
    var runStart = index
    while true {
      guard let byte = current else { throw failure("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        return try Self.validated(utf8, at: start)
      case UInt8(ascii: "\\"):
        utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        index += 1
        try parseEscape(into: &utf8)
        runStart = index
      case 0..<0x20:
        throw failure("control character \(Self.describe(byte)) in a string")
      default:
        index += 1
      }
    }
  }

  /// The escape after a backslash, appended as UTF-8.
  mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONParseError) {
    guard let byte = current else { throw failure("unterminated string") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
    case UInt8(ascii: "b"): utf8.append(0x08)
    case UInt8(ascii: "f"): utf8.append(0x0C)
    case UInt8(ascii: "n"): utf8.append(0x0A)
    case UInt8(ascii: "r"): utf8.append(0x0D)
    case UInt8(ascii: "t"): utf8.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = UInt32(try parseHex4())
      if (0xD800...0xDBFF).contains(scalar) {
        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("a high surrogate without its low surrogate") }
        index += 2
        let low = UInt32(try parseHex4())
        guard (0xDC00...0xDFFF).contains(low) else {
          throw failure("a high surrogate without its low surrogate")
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if (0xDC00...0xDFFF).contains(scalar) {
        throw failure("a low surrogate without its high surrogate")
      }
      guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
      utf8.append(contentsOf: UTF8.encode(unicode)!)
    default:
      throw failure("invalid escape \\\(Self.describe(byte))")
    }
  }

  mutating func parseHex4() throws(JSONParseError) -> UInt16 {
    guard bytes.count - index >= 4 else { throw failure("unterminated \\u escape") }
    var value: UInt16 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("expected a hex digit in a \\u escape")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  /// `utf8` as a String when it is valid UTF-8.
  static func validated(_ utf8: [UInt8], at offset: Int) throws(JSONParseError) -> String {
    guard let string = String(validating: utf8, as: UTF8.self) else {
      throw JSONParseError(offset: offset, reason: "a string that is not valid UTF-8")
    }
    return string
  }

  /// A byte as a person reads it: `'x'` for printable ASCII, `0x07` otherwise.
  static func describe(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "0x" + String(byte, radix: 16)
  }
}
