/// Whether a photo request made now would be taken at once, so the app can show a busy shutter.
public enum PhotoCaptureReadiness: String, Sendable, Hashable {
  /// The session is not running: a request fails with `sessionNotRunning`.
  case sessionNotRunning
  /// The photo output is still initialising and responsive capture is off: a request waits for it
  /// (it is not dropped); show a busy state.
  case notReadyWaitingForInitialization
  /// A request is accepted and its moment captured now.
  case ready
}
