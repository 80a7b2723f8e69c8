import Display
import LightBoard

/// One image the probe looks at, lent for the length of the callback that receives it: a
/// compositor scanout (shared-memory path) or a window's pixels read after a change (X11).
public struct ProbeFrame {
  /// The pixels, 8-bit luma.
  public var image: LumaImage
  /// When the image was on screen: the scanout time (shared memory), or when its pixels were in
  /// the probe's hands (X11). `CLOCK_MONOTONIC`, ns.
  public var time: UInt64
  /// Ground truth of what was presented (shared memory only; calibration reads it, detection never).
  public var presented: PresentedFrameInfo?

  /// Creates the frame.
  public init(image: LumaImage, time: UInt64, presented: PresentedFrameInfo? = nil) {
    self.image = image
    self.time = time
    self.presented = presented
  }
}
