import CXCBShims

/// A reply (or an error) XCB allocated: read its fields at protocol offsets; freed with it.
///
/// Fields are read through methods of the reply itself, never through a copied pointer, so the
/// reply stays alive (and allocated) while it is read.
final class X11Reply {
  private let pointer: UnsafeMutableRawPointer
  /// The reply's bytes: 32, plus `4 × length`.
  private let bytes: WireBytes

  /// Takes ownership of `pointer` (a reply: its length field says how long it is).
  init(reply pointer: UnsafeMutableRawPointer) {
    self.pointer = pointer
    let length = Int(WireBytes(pointer, count: 32).u32(4))
    self.bytes = WireBytes(pointer, count: 32 + 4 * length)
  }

  /// Takes ownership of `pointer` (an error or event: 32 bytes).
  init(fixed pointer: UnsafeMutableRawPointer) {
    self.pointer = pointer
    self.bytes = WireBytes(pointer, count: 32)
  }

  func u8(_ offset: Int) -> UInt8 { bytes.u8(offset) }
  func u16(_ offset: Int) -> UInt16 { bytes.u16(offset) }
  func i16(_ offset: Int) -> Int16 { bytes.i16(offset) }
  func u32(_ offset: Int) -> UInt32 { bytes.u32(offset) }

  /// Runs `body` on the reply's bytes from `offset` to its end.
  func withBytes<R>(from offset: Int, _ body: (UnsafeRawPointer, _ count: Int) -> R) -> R {
    body(UnsafeRawPointer(pointer) + offset, max(0, bytes.count - offset))
  }

  deinit { CXCBShims_free(pointer) }
}
