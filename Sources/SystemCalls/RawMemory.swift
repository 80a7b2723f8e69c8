#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Byte fills for code that must not import the C library (LightBoard): libc's `memset`, fast at
/// any optimisation level, where the generic `update(repeating:count:)` is a loop per byte in a
/// debug build.
public enum RawMemory {
  /// Sets the `count` bytes at `pointer` to `value`. The corresponding call is `memset(3)`.
  public static func fill(_ pointer: UnsafeMutablePointer<UInt8>, with value: UInt8, count: Int) {
    memset(pointer, Int32(value), count)
  }
}
