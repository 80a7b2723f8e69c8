/// What the presenting app wrote next to a slot's pixels: ground truth for calibration only.
/// The probe's detection path never reads it; it sees only pixels.
public struct PresentedFrameInfo: Sendable, Hashable {
  /// The frame's stream number (`VideoFrame.sequence`; 0 for a black cover).
  public var frameSequence: UInt64
  /// The frame's capture time, `CLOCK_MONOTONIC` ns.
  public var captureTime: UInt64
  /// When the app published the slot, `CLOCK_MONOTONIC` ns (read just before publishing, so no
  /// scanout can show the frame earlier).
  public var presentTime: UInt64
  /// Whether it was a black cover (`presentBlack()`).
  public var isBlack: Bool

  /// Creates the record.
  public init(frameSequence: UInt64, captureTime: UInt64, presentTime: UInt64, isBlack: Bool) {
    self.frameSequence = frameSequence
    self.captureTime = captureTime
    self.presentTime = presentTime
    self.isBlack = isBlack
  }
}
