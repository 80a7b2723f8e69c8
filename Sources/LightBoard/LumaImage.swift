/// A read-only view of an 8-bit luma image: what the decoder and the probe look at.
public struct LumaImage: @unchecked Sendable {
  // @unchecked: the view borrows memory the caller keeps alive and unchanged while it is used.
  /// The first byte of row 0.
  public let base: UnsafePointer<UInt8>
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Bytes per row (≥ width).
  public let bytesPerRow: Int

  /// Wraps memory the caller owns.
  public init(base: UnsafePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int) {
    self.base = base
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow
  }

  /// The pixel at column `x`, row `y`.
  @inline(__always)
  public subscript(x: Int, y: Int) -> UInt8 { base[y &* bytesPerRow &+ x] }
}
