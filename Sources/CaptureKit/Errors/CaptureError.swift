/// An error from CaptureKit: what went wrong (`code`), what a person can do about it (`message`),
/// and the cause (`underlying`, for example a device error).
public struct CaptureError: Error, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The session has no device input.
    case noInputs = "no-inputs"
    /// The committed configuration needs more than the device's hardware sustains (`hardwareCost > 1.0`).
    case hardwareCostExceeded = "hardware-cost-exceeded"
    /// The device could not be opened (missing, busy, no permission).
    case deviceOpenFailed = "device-open-failed"
    /// The device rejected the active format or frame rate.
    case formatRejected = "format-rejected"
    /// The device could not initialise an output.
    case outputInitializationFailed = "output-initialization-failed"
    /// The device could not start streaming.
    case streamStartFailed = "stream-start-failed"
    /// Deferred start was enabled on an output that does not support it.
    case deferredStartUnsupported = "deferred-start-unsupported"
    /// Manual deferred start was requested where the session cannot honour it.
    case manualDeferredStartUnsupported = "manual-deferred-start-unsupported"
    /// Responsive capture was enabled on a photo output that does not support it.
    case responsiveCaptureUnsupported = "responsive-capture-unsupported"
    /// The request needs a running session.
    case sessionNotRunning = "session-not-running"
    /// The session stopped before the request could finish.
    case sessionStopped = "session-stopped"
    /// The device could not take a still.
    case stillCaptureFailed = "still-capture-failed"
    /// A movie recording is already in progress.
    case alreadyRecording = "already-recording"
    /// No movie recording is in progress.
    case notRecording = "not-recording"
    /// Writing a file failed.
    case fileWriteFailed = "file-write-failed"
    /// The output is not attached to a session.
    case outputNotAttached = "output-not-attached"
  }

  /// What kind of failure this is.
  public var code: Code
  /// A sentence a person can act on.
  public var message: String
  /// The cause, if another error caused this one.
  public var underlying: (any Error)?

  /// Creates an error.
  public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
    self.code = code
    self.message = message
    self.underlying = underlying
  }

  /// `code: message (cause: underlying)`.
  public var description: String {
    var text = "\(code.rawValue): \(message)"
    if let underlying { text += " (cause: \(underlying))" }
    return text
  }
}
