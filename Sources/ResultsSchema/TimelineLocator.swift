import Foundation

/// The runs' timelines of a results file, found in its bytes without decoding them.
///
/// A results file is mostly its runs' timelines (about three quarters of its bytes), and a JSON
/// decoder parses every byte it is given, wanted or not. One pass over the bytes finds each
/// `cells[i].records[j].timeline` value; the decoder then gets the file with each of those values
/// replaced by `null` (a record without a timeline), and a reader that wants a few timelines
/// decodes just those byte ranges. The pass follows JSON's grammar only as far as it must to find
/// keys (strings and their escapes, nesting, keys and values), and checks each replaced value
/// strictly (RFC 8259, valid UTF-8), so a value it removes is one the decoder would have accepted;
/// a file it cannot follow (malformed, nested deeper than 64, a key with an escape in it, a
/// repeated `cells`, `records` or `timeline` key) gives nil, and the caller decodes the file as it is, which says what is wrong.
struct TimelineLocator {
  /// The file with every run's timeline replaced by `null`.
  let withoutTimelines: Data
  /// Where each replaced value lies in the original bytes: `ranges[cell][record]`.
  let ranges: [Int: [Int: Range<Int>]]

  /// Finds the timelines of `data`; nil when the pass cannot follow it.
  init?(_ data: Data) {
    var found: [Int: [Int: Range<Int>]] = [:]
    var spans: [Range<Int>] = []
    let ok = data.withUnsafeBytes { raw -> Bool in
      var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
      guard scanner.document() else { return false }
      for (cell, record, range) in scanner.timelines {
        // A key given twice: which one a decoder keeps is its own business; read the file whole.
        guard found[cell]?[record] == nil else { return false }
        found[cell, default: [:]][record] = range
        spans.append(range)
      }
      return true
    }
    guard ok else { return nil }
    var stripped = Data()
    stripped.reserveCapacity(data.count - spans.reduce(0) { $0 + $1.count } + 4 * spans.count)
    var copied = data.startIndex
    for span in spans {
      stripped.append(data[copied..<(data.startIndex + span.lowerBound)])
      stripped.append(contentsOf: Array("null".utf8))
      copied = data.startIndex + span.upperBound
    }
    stripped.append(data[copied..<data.endIndex])
    withoutTimelines = stripped
    ranges = found
  }

  /// A recursive-descent pass over the bytes: `document()` is false where it cannot follow them.
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var at = 0
    /// (cell index, record index, byte range of the timeline value), in file order.
    var timelines: [(Int, Int, Range<Int>)] = []
    /// Inside a timeline value: checked strictly (its bytes are not given to the decoder).
    var strict = false
    /// Whether the top object's `cells` was met, and the cells whose `records` were.
    var sawCells = false
    var cellsWithRecords = Set<Int>()
    static let maximumDepth = 64

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Where a value sits, as far as finding timelines needs: the top, `cells`, `cells[i]`,
    /// `cells[i].records`, `cells[i].records[j]`, or elsewhere.
    enum Place {
      case top, cells, cell(Int), records(Int), record(Int, Int), elsewhere
    }

    mutating func document() -> Bool {
      skipSpace()
      guard value(.top, depth: 0) else { return false }
      skipSpace()
      return at == bytes.count
    }

    mutating func skipSpace() {
      while at < bytes.count {
        switch bytes[at] {
        case 0x20, 0x0A, 0x0D, 0x09: at += 1
        default: return
        }
      }
    }

    mutating func value(_ place: Place, depth: Int) -> Bool {
      guard at < bytes.count, depth <= Self.maximumDepth else { return false }
      switch bytes[at] {
      case UInt8(ascii: "{"): return object(place, depth: depth + 1)
      case UInt8(ascii: "["): return array(place, depth: depth + 1)
      case UInt8(ascii: "\""): return string() != nil
      case UInt8(ascii: "t"): return literal("true")
      case UInt8(ascii: "f"): return literal("false")
      case UInt8(ascii: "n"): return literal("null")
      default: return number()
      }
    }

    mutating func object(_ place: Place, depth: Int) -> Bool {
      at += 1  // {
      skipSpace()
      if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
        at += 1
        return true
      }
      while true {
        // A key spelled with escapes could be any key (a decoder reads `timel\u0069ne` as
        // `timeline`): the file is then read whole.
        guard at < bytes.count, bytes[at] == UInt8(ascii: "\""), let key = string(), key != .escaped else {
          return false
        }
        skipSpace()
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { return false }
        at += 1
        skipSpace()
        switch (place, key) {
        case (.top, .cells):
          guard !sawCells else { return false }
          sawCells = true
          guard value(.cells, depth: depth) else { return false }
        case (.cell(let i), .records):
          guard cellsWithRecords.insert(i).inserted, value(.records(i), depth: depth) else { return false }
        case (.record(let i, let j), .timeline) where !strict:
          let start = at
          strict = true
          guard value(.elsewhere, depth: depth) else { return false }
          strict = false
          timelines.append((i, j, start..<at))
        default:
          guard value(.elsewhere, depth: depth) else { return false }
        }
        guard let more = next(closing: UInt8(ascii: "}")) else { return false }
        if !more { return true }
      }
    }

    mutating func array(_ place: Place, depth: Int) -> Bool {
      at += 1  // [
      skipSpace()
      if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
        at += 1
        return true
      }
      var index = 0
      while true {
        let elementPlace: Place
        switch place {
        case .cells: elementPlace = .cell(index)
        case .records(let i): elementPlace = .record(i, index)
        default: elementPlace = .elsewhere
        }
        guard value(elementPlace, depth: depth) else { return false }
        index += 1
        guard let more = next(closing: UInt8(ascii: "]")) else { return false }
        if !more { return true }
      }
    }

    /// After a member or an element: true past a comma (another follows), false past `closing`
    /// (the container ends), nil for anything else.
    mutating func next(closing: UInt8) -> Bool? {
      skipSpace()
      guard at < bytes.count else { return nil }
      if bytes[at] == UInt8(ascii: ",") {
        at += 1
        skipSpace()
        return true
      }
      guard bytes[at] == closing else { return nil }
      at += 1
      return false
    }

    /// The keys the pass looks for; `escaped` for a string with an escape in it.
    enum Key { case cells, records, timeline, other, escaped }

    /// Skips a string; nil when it is not one. Strict: valid escapes, no control bytes, UTF-8.
    mutating func string() -> Key? {
      at += 1  // "
      let start = at
      var escaped = false
      var wide = false
      while at < bytes.count {
        let c = bytes[at]
        if c == UInt8(ascii: "\"") {
          if strict && wide && String(validating: bytes[start..<at], as: UTF8.self) == nil { return nil }
          let key = escaped ? .escaped : Self.key(bytes[start..<at])
          at += 1
          return key
        }
        if c == UInt8(ascii: "\\") {
          escaped = true
          guard at + 1 < bytes.count else { return nil }
          if strict {
            switch bytes[at + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
              UInt8(ascii: "f"),
              UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
              at += 2
            case UInt8(ascii: "u"):
              guard at + 5 < bytes.count, (2...5).allSatisfy({ Self.isHex(bytes[at + $0]) }) else {
                return nil
              }
              // A surrogate half: whether a decoder takes it alone or in a pair is its own business.
              let first = bytes[at + 2] | 0x20
              if first == UInt8(ascii: "d") && bytes[at + 3] >= UInt8(ascii: "8") { return nil }
              at += 6
            default: return nil
            }
          } else {
            at += 2
          }
          continue
        }
        if strict && c < 0x20 { return nil }
        if c >= 0x80 { wide = true }
        at += 1
      }
      return nil
    }

    static func key(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Key {
      if text.elementsEqual("cells".utf8) { return .cells }
      if text.elementsEqual("records".utf8) { return .records }
      if text.elementsEqual("timeline".utf8) { return .timeline }
      return .other
    }

    static func isHex(_ c: UInt8) -> Bool {
      (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c)
    }

    static func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }

    mutating func literal(_ word: StaticString) -> Bool {
      let count = word.utf8CodeUnitCount
      guard at + count <= bytes.count else { return false }
      for k in 0..<count where bytes[at + k] != word.utf8Start[k] { return false }
      at += count
      return true
    }

    /// A number: outside a timeline, any run of number bytes (the decoder checks them); inside
    /// one, JSON's grammar `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`.
    mutating func number() -> Bool {
      guard strict else {
        let start = at
        while at < bytes.count {
          switch bytes[at] {
          case 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            at += 1
          default: return at > start
          }
        }
        return at > start
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
      guard at < bytes.count, Self.isDigit(bytes[at]) else { return false }
      if bytes[at] == UInt8(ascii: "0") {
        at += 1
      } else {
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
        at += 1
        guard at < bytes.count, Self.isDigit(bytes[at]) else { return false }
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
      }
      if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
        at += 1
        if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, Self.isDigit(bytes[at]) else { return false }
        while at < bytes.count, Self.isDigit(bytes[at]) { at += 1 }
      }
      return true
    }
  }
}
