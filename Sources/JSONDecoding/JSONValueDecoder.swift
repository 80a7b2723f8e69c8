/// Decodes `Decodable` types from JSON without Foundation, with the errors Foundation's
/// `JSONDecoder` gives: `DecodingError.keyNotFound`, `.typeMismatch`, `.valueNotFound` with the
/// coding path of the field, and `.dataCorrupted` with an empty path for text that is not JSON.
///
/// Numbers: an integer type reads a whole number exactly (also written as `2.0` or `1e3`) and
/// rejects a fraction or a value out of its range; a floating-point type rejects a number that
/// overflows to infinity. Keys are used as written (no case conversion); unknown keys are ignored.
public struct JSONValueDecoder: Sendable {
  /// The deepest nesting accepted.
  public var maxDepth: Int

  /// Creates a decoder.
  public init(maxDepth: Int = 512) { self.maxDepth = maxDepth }

  /// Decodes a `T` from UTF-8 JSON `bytes`.
  /// - Throws: `DecodingError` (see the type's summary).
  public func decode<T: Decodable>(_ type: T.Type, from bytes: some Sequence<UInt8>) throws -> T {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: bytes, maxDepth: maxDepth)
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [], debugDescription: "The given data was not valid JSON.", underlyingError: error))
    }
    return try decode(type, from: value)
  }

  /// Decodes a `T` from a parsed value.
  /// - Throws: `DecodingError` (see the type's summary).
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    try ValueDecoder(value: value, codingPath: []).decode(type)
  }
}

/// A coding key for array positions and dictionary keys.
struct JSONKey: CodingKey {
  var stringValue: String
  var intValue: Int?

  init(stringValue: String) {
    self.stringValue = stringValue
    self.intValue = nil
  }

  init(intValue: Int) {
    self.stringValue = "Index \(intValue)"
    self.intValue = intValue
  }
}

/// The `Decoder` for one value.
struct ValueDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let members) = value else {
      throw mismatch([String: JSONValue].self)
    }
    return KeyedDecodingContainer(ObjectContainer<Key>(members: members, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
    return ArrayContainer(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func mismatch(_ type: Any.Type) -> DecodingError {
    if case .null = value {
      return DecodingError.valueNotFound(
        type,
        .init(codingPath: codingPath, debugDescription: "Cannot get \(type) -- found null value instead"))
    }
    return DecodingError.typeMismatch(
      type,
      .init(
        codingPath: codingPath,
        debugDescription: "Expected to decode \(type) but found \(value.kindDescription) instead."))
  }

  func corrupted(_ description: String) -> DecodingError {
    DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: description))
  }

  /// The number's text, or a type mismatch naming `type`.
  func numberText(for type: Any.Type) throws -> String {
    guard case .number(let text) = value else { throw mismatch(type) }
    return text
  }

  func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    let text = try numberText(for: type)
    if let exact = T(text) { return exact }
    // A whole number written with a fraction or an exponent (`2.0`, `1e3`) still reads: its
    // exact value, computed from the digits, not through a rounding double.
    if let whole = Self.exactInteger(text), let value = T(exactly: whole) { return value }
    throw corrupted("Parsed JSON number <\(text)> does not fit in \(type).")
  }

  /// The exact value of a JSON number's text when it is a whole number within ±2^64, else nil
  /// (`12.50e1` → 125, `1.5` → nil).
  static func exactInteger(_ text: String) -> Int128? {
    let parts = text.split(maxSplits: 1) { $0 == "e" || $0 == "E" }
    var exponent = 0
    if parts.count == 2 {
      var e = parts[1]
      if e.first == "+" { e = e.dropFirst() }
      guard let value = Int(e), abs(value) < 1000 else { return nil }
      exponent = value
    }
    var digits: [UInt8] = []
    var fractionDigits = 0
    var inFraction = false
    for byte in (parts.first ?? "").utf8 {
      switch byte {
      case UInt8(ascii: "-"): continue
      case UInt8(ascii: "."): inFraction = true
      default:
        digits.append(byte - UInt8(ascii: "0"))
        if inFraction { fractionDigits += 1 }
      }
    }
    let negative = text.hasPrefix("-")
    var scale = exponent - fractionDigits
    while scale < 0 {  // drop the digits after the point: they must be zeros
      guard let last = digits.popLast() else { return 0 }  // only zeros were there
      guard last == 0 else { return nil }
      scale += 1
    }
    var value: Int128 = 0
    let limit = Int128(UInt64.max)
    for digit in digits {
      value = value * 10 + Int128(digit)
      guard value <= limit else { return nil }
    }
    for _ in 0..<scale where value != 0 {
      value *= 10
      guard value <= limit else { return nil }
    }
    return negative ? -value : value
  }

  func decodeFloatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(_ type: T.Type) throws -> T {
    let text = try numberText(for: type)
    guard let number = T(text), number.isFinite else {
      throw corrupted("Parsed JSON number <\(text)> does not fit in \(type).")
    }
    return number
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try T(from: self)
  }
}

extension ValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .bool(let b) = value else { throw mismatch(type) }
    return b
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .string(let s) = value else { throw mismatch(type) }
    return s
  }

  func decode(_ type: Double.Type) throws -> Double { try decodeFloatingPoint(type) }
  func decode(_ type: Float.Type) throws -> Float { try decodeFloatingPoint(type) }
  func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
}

/// An object's members.
struct ObjectContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let members: [String: JSONValue]
  let codingPath: [any CodingKey]

  var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

  func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

  func child(_ key: Key) throws -> ValueDecoder {
    guard let value = members[key.stringValue] else {
      throw DecodingError.keyNotFound(
        key,
        .init(
          codingPath: codingPath,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return ValueDecoder(value: value, codingPath: codingPath + [key])
  }

  func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decode(type) }
  func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decode(type) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decode(type) }
  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decode(type) }
  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decode(type) }
  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decode(type) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decode(type) }
  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decode(type) }
  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decode(type) }
  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decode(type) }
  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decode(type) }
  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decode(type) }
  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try child(key).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try child(key).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder {
    ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath + [JSONKey(stringValue: "super")])
  }

  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
  }
}

/// An array's elements, read in order.
struct ArrayContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  /// The next element's decoder; advances only when `body` succeeds.
  mutating func next<T>(_ type: T.Type, _ body: (ValueDecoder) throws -> T) throws -> T {
    let key = JSONKey(intValue: currentIndex)
    guard !isAtEnd else {
      throw DecodingError.valueNotFound(
        type, .init(codingPath: codingPath + [key], debugDescription: "Unkeyed container is at end."))
    }
    let result = try body(ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [key]))
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, case .null = elements[currentIndex] else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: String.Type) throws -> String { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { try $0.decode(type) } }
  mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { try $0.decode(type) } }
  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type) { try $0.decode(type) } }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> {
    try next(KeyedDecodingContainer<NestedKey>.self) { try $0.container(keyedBy: type) }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next((any UnkeyedDecodingContainer).self) { try $0.unkeyedContainer() }
  }

  mutating func superDecoder() throws -> any Decoder {
    try next((any Decoder).self) { $0 }
  }
}
