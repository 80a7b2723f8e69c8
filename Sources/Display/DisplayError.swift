import SystemCalls

/// Something went wrong with a display surface: a code to branch on, a message a person can act
/// on, and the cause (the system call and its `errno`, where there is one).
public struct DisplayError: Error, CustomStringConvertible, Equatable, Sendable {
  /// What kind of failure this is.
  public enum Code: String, Sendable, Hashable {
    /// No shared-memory object has that name (`shm_open` said `ENOENT`).
    case surfaceNotFound = "surface_not_found"
    /// The object exists but is not a FirstFrame surface (bad magic, or too small for a header).
    case notASurface = "not_a_surface"
    /// A FirstFrame surface of a layout version this build does not read.
    case unsupportedVersion = "unsupported_version"
    /// A header field is out of range (size, pixel format, slot count).
    case invalidHeader = "invalid_header"
    /// The header's geometry does not match the object's size.
    case sizeMismatch = "size_mismatch"
    /// The header was being written while it was read, and stayed so.
    case tornHeader = "torn_header"
    /// A bad argument (for example a zero width).
    case invalidArgument = "invalid_argument"
    /// The surface was closed.
    case closed
    /// A system call failed; `systemCall` and `errno` say which and why.
    case systemCallFailed = "system_call_failed"
  }

  /// What kind of failure this is.
  public var code: Code
  /// One sentence a person can act on.
  public var message: String
  /// The failing system call (`shm_open`, `mmap`, …), if any.
  public var systemCall: String?
  /// The `errno` it set, if any.
  public var errno: Errno?

  /// Creates an error.
  public init(_ code: Code, _ message: String, systemCall: String? = nil, errno: Errno? = nil) {
    self.code = code
    self.message = message
    self.systemCall = systemCall
    self.errno = errno
  }

  /// The message, followed by the system call and `strerror(errno)` when known.
  public var description: String {
    var s = message
    if let systemCall, let errno {
      s += " (\(systemCall): \(errno.message), errno \(errno.rawValue))"
    } else if let systemCall {
      s += " (\(systemCall))"
    }
    return s
  }
}
