/// Where preview frames are presented: a display surface (shared memory scanned out by a
/// compositor), or anything else that shows pixels.
public protocol DisplaySink: AnyObject, Sendable {
  /// Posts `frame` for the next scanout. Returns once the frame is visible to the compositor.
  func present(_ frame: VideoFrame)
  /// Covers the display with black (the app's lock cover).
  func presentBlack()
}
