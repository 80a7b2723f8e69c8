import SystemCalls

/// Where preview frames are presented: a display surface (shared memory scanned out by a
/// compositor), or anything else that shows pixels.
public protocol DisplaySink: AnyObject, Sendable {
  /// Posts `frame` for the next scanout. Returns once the frame is visible to the compositor.
  func present(_ frame: VideoFrame)
  /// Covers the display with black (the app's lock cover).
  func presentBlack()
  /// Posts `frame` as `present(_:)` does and returns its present time: `CLOCK_MONOTONIC` ns read
  /// **before** the frame became visible to the compositor, so that no scanout of the frame can
  /// be stamped earlier (`PreviewOutput` stamps `preview.first_present` with it).
  ///
  /// The default reads the clock and then calls `present(_:)`; a sink that publishes frames
  /// itself stamps inside its publish, just before the frame becomes visible.
  func presentStamped(_ frame: VideoFrame) -> UInt64
}

extension DisplaySink {
  /// Reads the clock, then presents: the stamp is never later than the frame is visible.
  public func presentStamped(_ frame: VideoFrame) -> UInt64 {
    let presentedAt = MonotonicClock.now()
    present(frame)
    return presentedAt
  }
}
