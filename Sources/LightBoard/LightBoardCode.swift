/// The bits a board carries: capture time (µs), marker, bar step and check code.
enum LightBoardCode {
  /// Total data bits: 48 time + 3 marker + 5 step + 16 check.
  static let bitCount = LightBoardLayout.codeRows * LightBoardLayout.dataColumns
  /// The 3-bit marker that tells a board from chance.
  static let marker: UInt64 = 0b101
  static let timeMask: UInt64 = (1 << 48) - 1

  /// The 56 payload bits: time (48) · marker (3) · step (5).
  @inline(__always)
  static func payload(microseconds: UInt64, step: Int) -> UInt64 {
    ((microseconds & timeMask) << 8) | (marker << 5) | UInt64(step & 31)
  }

  /// The 72-bit code word as (high 8 bits, low 64 bits), bit 71 first on the board.
  @inline(__always)
  static func word(microseconds: UInt64, step: Int) -> (high: UInt64, low: UInt64) {
    let p = payload(microseconds: microseconds, step: step)
    let crc = UInt64(crc16(payload56: p))
    // word = p << 16 | crc, 72 bits.
    return (high: p >> 48, low: (p << 16) | crc)
  }

  /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of the 7 bytes of `payload56`,
  /// most significant first. Bitwise: 56 steps, no table, no allocation.
  @inline(__always)
  static func crc16(payload56: UInt64) -> UInt16 {
    var crc: UInt16 = 0xFFFF
    var shift = 48
    while shift >= 0 {
      crc ^= UInt16(truncatingIfNeeded: (payload56 >> UInt64(shift)) & 0xFF) << 8
      for _ in 0..<8 {
        crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
      }
      shift -= 8
    }
    return crc
  }

  /// Bit `index` (0 = first on the board = most significant) of a 72-bit word.
  @inline(__always)
  static func bit(_ index: Int, of word: (high: UInt64, low: UInt64)) -> Bool {
    let fromLSB = bitCount - 1 - index
    return fromLSB >= 64
      ? (word.high >> UInt64(fromLSB - 64)) & 1 == 1 : (word.low >> UInt64(fromLSB)) & 1 == 1
  }
}
