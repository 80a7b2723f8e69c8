/// Reads fields of an X protocol message — a reply, an event, an error or the connection setup —
/// at the byte offsets the protocol defines. XCB hands these over in the client's byte order,
/// as they came off the wire (32 bytes, plus `4 × length` for a reply), so a field is an
/// unaligned load in native order.
struct WireBytes {
  let base: UnsafeRawPointer
  /// How many bytes may be read.
  let count: Int

  init(_ base: UnsafeRawPointer, count: Int) {
    self.base = base
    self.count = count
  }

  func u8(_ offset: Int) -> UInt8 {
    precondition(offset + 1 <= count, "X protocol field beyond the message")
    return base.load(fromByteOffset: offset, as: UInt8.self)
  }

  func u16(_ offset: Int) -> UInt16 {
    precondition(offset + 2 <= count, "X protocol field beyond the message")
    return base.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
  }

  func i16(_ offset: Int) -> Int16 { Int16(bitPattern: u16(offset)) }

  func u32(_ offset: Int) -> UInt32 {
    precondition(offset + 4 <= count, "X protocol field beyond the message")
    return base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
  }

  /// `count` bytes from `offset` (clipped to the message).
  func bytes(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
    let n = max(0, min(length, count - offset))
    return UnsafeRawBufferPointer(start: base + offset, count: n)
  }

  /// The X protocol pads lists and strings to a multiple of 4 bytes.
  static func padded(_ n: Int) -> Int { (n + 3) & ~3 }
}
