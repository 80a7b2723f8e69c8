/// One image from a camera: 8-bit luma (the display format of FirstFrame), row-major.
///
/// Luma only keeps the pipeline cheap and is all the probe and the light board need; a movie
/// file adds neutral chroma when it writes Y4M.
public struct VideoFrame: Sendable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bytes per row (≥ `width`).
  public var bytesPerRow: Int
  /// The luma plane, `bytesPerRow * height` bytes.
  public var pixels: [UInt8]
  /// The frame's number in its stream, from 0.
  public var sequence: UInt64
  /// When the sensor captured it: `CLOCK_MONOTONIC`, nanoseconds.
  public var captureTime: UInt64

  /// Creates a frame. `pixels.count` must be at least `bytesPerRow * height`.
  public init(
    width: Int, height: Int, bytesPerRow: Int? = nil, pixels: [UInt8], sequence: UInt64,
    captureTime: UInt64
  ) {
    precondition(width > 0 && height > 0, "a frame has a size")
    let stride = bytesPerRow ?? width
    precondition(stride >= width && pixels.count >= stride * height, "pixels cover the frame")
    self.width = width
    self.height = height
    self.bytesPerRow = stride
    self.pixels = pixels
    self.sequence = sequence
    self.captureTime = captureTime
  }
}
