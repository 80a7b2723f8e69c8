import SystemCalls

/// Why a synthetic camera call failed: a code, a message a person can act on, and the cause.
public struct SyntheticCameraError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: String, Sendable, Hashable {
    /// A call that needs an open device came before `open()` or after `close()`.
    case notOpen
    /// `open()` on a device that is already open.
    case alreadyOpen
    /// `setActiveFormat` with a format the device does not list.
    case unsupportedFormat
    /// A frame rate ≤ 0 or above the format's maximum.
    case unsupportedFrameRate
    /// `captureStill()` before `initializeOutput(.photo)`.
    case photoOutputNotInitialized
    /// `startStream` while streaming, or a format change while streaming.
    case streaming
    /// The frame thread could not be created.
    case threadCreationFailed
    /// The power state file could not be written or removed.
    case stateFile
  }

  /// What went wrong.
  public var code: Code
  /// One line for a person.
  public var message: String
  /// The underlying cause (errno text, path), if any.
  public var cause: String?
  /// The `errno` of the system call that failed, if one did (its text is the ``cause``).
  public var errno: Errno?

  /// Creates an error.
  public init(_ code: Code, _ message: String, cause: String? = nil) {
    self.code = code
    self.message = message
    self.cause = cause
  }

  /// Creates an error caused by a failed system call: `errno` is kept, its text is the cause.
  public init(_ code: Code, _ message: String, errno: Errno) {
    self.init(code, message, cause: errno.message)
    self.errno = errno
  }

  /// The message, with the cause in parentheses when there is one.
  public var description: String { cause.map { "\(message) (\($0))" } ?? message }
}
