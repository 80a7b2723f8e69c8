/// One image the compositor scanned out: what a camera pointed at the screen would see.
public struct Scanout: Sendable {
  /// The scanout's number, from 0.
  public var index: UInt64
  /// When the compositor latched it: `CLOCK_MONOTONIC`, nanoseconds.
  public var time: UInt64
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The image, `width × height` bytes, rows packed (bytes per row = `width`).
  public var pixels: [UInt8]
  /// Ground truth about the latched slot, for calibration only (nil while nothing was
  /// presented). The probe's detection path never reads it.
  public var presented: PresentedFrameInfo?

  /// Creates a scanout.
  public init(
    index: UInt64, time: UInt64, width: Int, height: Int, pixels: [UInt8], presented: PresentedFrameInfo?
  ) {
    self.index = index
    self.time = time
    self.width = width
    self.height = height
    self.pixels = pixels
    self.presented = presented
  }
}
