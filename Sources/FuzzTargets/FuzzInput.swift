/// A fuzzer's bytes read as a small program: numbers, choices and byte runs, front to back.
/// Reading past the end gives zeros, so every input is a complete program.
struct FuzzInput {
  private var bytes: ArraySlice<UInt8>

  init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

  /// Whether every byte was read.
  var isEmpty: Bool { bytes.isEmpty }

  /// The next byte, or 0 past the end.
  mutating func byte() -> UInt8 { bytes.popFirst() ?? 0 }

  /// The next `n` bytes as a little-endian unsigned number (n ≤ 8).
  mutating func unsigned(bytes n: Int) -> UInt64 {
    var value: UInt64 = 0
    for i in 0..<n { value |= UInt64(byte()) << (8 * UInt64(i)) }
    return value
  }

  /// A number in `range`, from as few bytes as the range needs.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound) + 1
    let n = span <= 0x100 ? 1 : span <= 0x1_0000 ? 2 : span <= 0x1_0000_0000 ? 4 : 8
    return range.lowerBound + Int(unsigned(bytes: n) % span)
  }

  /// The next `n` bytes (fewer at the end).
  mutating func take(_ n: Int) -> [UInt8] {
    let run = bytes.prefix(max(0, n))
    bytes = bytes.dropFirst(run.count)
    return Array(run)
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] { take(bytes.count) }
}
