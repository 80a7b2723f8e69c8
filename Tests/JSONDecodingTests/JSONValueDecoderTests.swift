import Foundation
import JSONDecoding
import PhaseTrace
import Sampling
import Testing

/// The decoder against Foundation's `JSONDecoder`: the same values for valid JSON, a rejection
/// for what Foundation rejects, and errors with the same kind and coding path.
@Suite struct JSONValueDecoderTests {
  struct Sample: Codable, Equatable {
    var name: String
    var count: Int
    var ratio: Double
    var tags: [String]
    var nested: [String: [Int64]]
    var flag: Bool?
  }

  static func both<T: Decodable>(_ type: T.Type, _ text: String) -> (
    ours: Result<T, any Error>, foundation: Result<T, any Error>
  ) {
    let bytes = Array(text.utf8)
    return (
      Result { try JSONValueDecoder().decode(type, from: bytes) },
      Result { try JSONDecoder().decode(type, from: Data(bytes)) }
    )
  }

  /// "keyNotFound costs.ms", "typeMismatch a.b", "valueNotFound x", "dataCorrupted" or "ok".
  static func summary<T>(_ result: Result<T, any Error>) -> String {
    guard case .failure(let error) = result else { return "ok" }
    guard let decoding = error as? DecodingError else { return "other" }
    func path(_ keys: [any CodingKey]) -> String {
      keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
    switch decoding {
    case .keyNotFound(let key, let c): return "keyNotFound \(path(c.codingPath + [key]))"
    case .typeMismatch(_, let c): return "typeMismatch \(path(c.codingPath))"
    case .valueNotFound(_, let c): return "valueNotFound \(path(c.codingPath))"
    case .dataCorrupted(let c): return "dataCorrupted \(path(c.codingPath))"
    @unknown default: return "unknown"
    }
  }

  @Test("valid documents decode to what Foundation decodes")
  func validDocuments() throws {
    let text = #"""
      { "name": "caf\u00e9 \ud83d\udcf7 \"q\" \\ \/ \n", "count": -42, "ratio": 2.5e-3,
        "tags": [], "nested": {"a": [1, 2.0, 1e3, -9223372036854775808], "": []}, "unknown": [null, {}] }
      """#
    let (ours, foundation) = Self.both(Sample.self, text)
    #expect(try ours.get() == foundation.get())
    #expect(try ours.get().nested["a"] == [1, 2, 1000, Int64.min])
  }

  @Test(
    "text that is not JSON is rejected, as Foundation's JSONSerialization rejects it",
    arguments: [
      "", " ", "{", "}", "01", "1.", ".5", "-", "+1", "1e", "1e+", "--1", "0x10",
      "\"\\x\"", "\"\u{1}\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\u12\"", "[1] x",
      "nul", "tru", "{\"a\" 1}", "{1:2}", "[1 2]", "'a'", "NaN", "Infinity", "\"abc", "[",
      String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
  func invalidDocuments(text: String) {
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
    #expect(Self.summary(Self.both([String: Int].self, text).ours) == "dataCorrupted ")
    #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) == nil)
  }

  @Test(
    "stricter than Foundation: a trailing comma is an error (RFC 8259)", arguments: ["[1,]", #"{"a":1,}"#])
  func trailingComma(text: String) {
    #expect(throws: JSONParseError.self) { try JSONValue(parsing: Array(text.utf8)) }
  }

  @Test("like Foundation: a byte order mark is skipped and the first of repeated keys wins")
  func foundationCompatible() throws {
    let text = "\u{FEFF}" + #"{"a": 1, "a": 2}"#
    let (ours, foundation) = Self.both([String: Int].self, text)
    #expect(try ours.get() == ["a": 1])
    #expect(try foundation.get() == ["a": 1])
  }

  @Test(
    "numbers: whole numbers read as integers whatever their spelling; fractions and overflow do not",
    arguments: [
      "2", "2.0", "1e3", "-0", "1.5", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
      "1e19", "3.0e0", "0.5e1", "1e-5", "12345678E9", "0.000", "250e-2", "2500e-2", "1E+2",
      "18446744073709551615.0", "1e400",
    ])
  func integers(number: String) {
    let (ours, foundation) = Self.both([Int64].self, "[\(number)]")
    #expect((try? ours.get()) == (try? foundation.get()), "\(number)")
    let (u8, fu8) = Self.both([UInt8].self, "[\(number)]")
    #expect((try? u8.get()) == (try? fu8.get()), "\(number) as UInt8")
    let (d, fd) = Self.both([Double].self, "[\(number)]")
    #expect((try? d.get()) == (try? fd.get()), "\(number) as Double")
  }

  @Test("where Foundation goes through a rounding double, a number reads exactly")
  func exactWhereFoundationRounds() throws {
    #expect(
      try JSONValueDecoder().decode([Int64].self, from: Array("[9223372036854775807.0]".utf8)) == [.max])
    #expect(throws: DecodingError.self) {
      try JSONValueDecoder().decode([Int64].self, from: Array("[1e-400]".utf8))
    }
    #expect(try JSONValueDecoder().decode([Double].self, from: Array("[-0.0e5]".utf8)) == [-0.0])
  }

  @Test("UInt64 reads its whole range exactly")
  func unsigned() throws {
    let (ours, _) = Self.both([UInt64].self, "[18446744073709551615, 0]")
    #expect(try ours.get() == [UInt64.max, 0])
    #expect(Self.summary(Self.both([UInt64].self, "[18446744073709551616]").ours) == "dataCorrupted [0]")
    #expect(Self.summary(Self.both([UInt64].self, "[-1]").ours) == "dataCorrupted [0]")
  }

  @Test(
    "errors name the same field as Foundation's",
    arguments: [
      #"{"count": 1, "ratio": 1, "tags": [], "nested": {}}"#,
      #"{"name": 5, "count": 1, "ratio": 1, "tags": [], "nested": {}}"#,
      #"{"name": "n", "count": 1.5, "ratio": 1, "tags": [], "nested": {}}"#,
      #"{"name": "n", "count": null, "ratio": 1, "tags": [], "nested": {}}"#,
      #"{"name": "n", "count": 1, "ratio": "x", "tags": [], "nested": {}}"#,
      #"{"name": "n", "count": 1, "ratio": 1, "tags": ["a", 2], "nested": {}}"#,
      #"{"name": "n", "count": 1, "ratio": 1, "tags": [], "nested": {"k": [1, "2"]}}"#,
      #"{"name": "n", "count": 1, "ratio": 1, "tags": [], "nested": {"k": 3}}"#,
      #"{"name": "n", "count": 1, "ratio": 1, "tags": [], "nested": {}, "flag": 1}"#,
      #"{"name": "n", "count": 1, "ratio": 1, "tags": [], "nested": {}, "flag": null}"#,
      #"[1]"#,
    ])
  func errorsMatch(text: String) {
    let (ours, foundation) = Self.both(Sample.self, text)
    // Where Foundation names no field for a number that does not fit (`count: 1.5`), this
    // decoder names it.
    if Self.summary(foundation) == "dataCorrupted " {
      #expect(Self.summary(ours).hasPrefix("dataCorrupted "))
    } else {
      #expect(Self.summary(ours) == Self.summary(foundation))
    }
  }

  /// Whether `bytes` has a comma before a closing bracket (outside strings or not: a rough test).
  static func hasTrailingComma(_ bytes: [UInt8]) -> Bool {
    let compact = bytes.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    return zip(compact, compact.dropFirst()).contains {
      $0 == UInt8(ascii: ",") && ($1 == 0x7D || $1 == 0x5D)
    }
  }

  @Test(
    "trace lines: 2 000 seeded random byte edits of valid lines are read as Foundation reads them, when it validates them"
  )
  func mutatedTraceLines() throws {
    let lines = [
      #"{"ts":123456789,"name":"app.main","kind":"event","pid":42,"fields":{"run":"cold-1"}}"#,
      #"{"ts":1,"name":"output.init","kind":"begin","pid":7,"fields":{"output":"photo","n":3,"x":2.5,"b":true}}"#,
    ]
    var generator = SplitMix64(seed: 14)
    let alphabet = Array(#"{}[]":,.-+eE0123456789 \tabnrtu"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF]
    var differences: [String] = []
    for _ in 0..<2000 {
      var bytes = Array(lines.randomElement(using: &generator)!.utf8)
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[at] = alphabet.randomElement(using: &generator)!
        case 1: bytes.remove(at: at)
        default: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
        }
        if bytes.isEmpty { bytes = [0x20] }
      }
      let ours = try? JSONValueDecoder().decode(PhaseEvent.self, from: bytes)
      // Foundation's decoder skips what it does not decode (an unknown key's value) unchecked;
      // JSONSerialization checks the whole text. Trailing commas: see `trailingComma`.
      let valid = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
      let foundation = valid ? try? JSONDecoder().decode(PhaseEvent.self, from: Data(bytes)) : nil
      if ours != foundation && !Self.hasTrailingComma(bytes) {
        differences.append(String(decoding: bytes, as: UTF8.self))
      }
    }
    #expect(differences.isEmpty, "\(differences.prefix(5))")
  }
}
