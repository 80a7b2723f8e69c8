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
  /// X11: the probe read this image late — its change arrived while the probe was still busy
  /// with the previous image (converting and analysing it at normal priority), so the time since
  /// the previous read is the probe's own, not the app's. Never on shared memory (the compositor
  /// scans out on its grid).
  public var seenLate: Bool

  /// Creates the frame.
  public init(image: LumaImage, time: UInt64, presented: PresentedFrameInfo? = nil, seenLate: Bool = false) {
    self.image = image
    self.time = time
    self.presented = presented
    self.seenLate = seenLate
  }
}
