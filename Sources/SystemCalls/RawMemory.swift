#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Byte fills and scans for code that must not import the C library (LightBoard, PhaseTrace):
/// libc's `memset` and `memchr`, fast at any optimisation level, where the generic
/// `update(repeating:count:)` or a Swift loop is a loop per byte in a debug build.
public enum RawMemory {
  /// Sets the `count` bytes at `pointer` to `value`. The corresponding call is `memset(3)`.
  public static func fill(_ pointer: UnsafeMutablePointer<UInt8>, with value: UInt8, count: Int) {
    memset(pointer, Int32(value), count)
  }

  /// The offset of the first byte equal to `value` in `bytes`, or nil when there is none. The
  /// corresponding call is `memchr(3)`.
  public static func firstIndex(of value: UInt8, in bytes: UnsafeRawBufferPointer) -> Int? {
    guard let base = bytes.baseAddress, let found = memchr(base, Int32(value), bytes.count) else {
      return nil
    }
    return UnsafeRawPointer(found) - base
  }
}
