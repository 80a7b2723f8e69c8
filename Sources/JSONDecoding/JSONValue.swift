/// A parsed JSON document (RFC 8259), without Foundation.
///
/// Numbers keep their literal text, so that a 64-bit integer reads back exactly and a decoder can
/// decide per type how to read it (``JSONValueDecoder``). Objects keep the first value of a
/// repeated key (as Foundation's `JSONDecoder`). Stricter than Foundation: a trailing comma
/// (`[1,]`) is an error, as RFC 8259 says.
public enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as its literal text (`-12`, `3.5e2`): valid JSON number syntax.
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object.
  case object([String: JSONValue])

  /// The JSON type's name for messages: `null`, `a boolean`, `a number`, `a string`, `an array`,
  /// `an object`.
  public var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// Parses one JSON document from UTF-8 `bytes` (whitespace around it allowed).
  /// - Throws: ``JSONParseError`` with the byte offset of the first problem: bad syntax, invalid
  ///   UTF-8 or escapes, nesting deeper than `maxDepth`, or text after the document.
  public init(parsing bytes: some Sequence<UInt8>, maxDepth: Int = 512) throws(JSONParseError) {
    let array = Array(bytes)
    let parsed = array.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(bytes: buffer, maxDepth: maxDepth)
      return Result { () throws(JSONParseError) in try parser.parseDocument() }
    }
    self = try parsed.get()
  }
}

/// Why a text is not JSON, and where: one line.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The byte offset of the problem in the input.
  public var offset: Int
  /// What is wrong there (`unexpected character 'x'`).
  public var reason: String

  /// Creates an error.
  public init(offset: Int, reason: String) {
    self.offset = offset
    self.reason = reason
  }

  /// `not valid JSON at byte N: reason`.
  public var description: String { "not valid JSON at byte \(offset): \(reason)" }
}
