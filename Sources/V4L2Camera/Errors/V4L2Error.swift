import SystemCalls

/// A V4L2 failure: what went wrong (``code``), one line a person can act on (``message``), and
/// the cause — errno, the ioctl and the device path (STYLE.md rule 4).
public struct V4L2Error: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kind of failure, stable for programs and tests.
  public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// `no_such_device`, `permission_denied`, …
    public var rawValue: String
    /// Creates a code.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The path does not exist, or is not a V4L2 video capture device.
    public static let noSuchDevice = Code(rawValue: "no_such_device")
    /// The node exists but this user may not open it (`EACCES`/`EPERM`).
    public static let permissionDenied = Code(rawValue: "permission_denied")
    /// Another process holds the device (`EBUSY`).
    public static let busy = Code(rawValue: "busy")
    /// The device cannot deliver a format this backend can turn into luma.
    public static let formatUnsupported = Code(rawValue: "format_unsupported")
    /// The device vanished while streaming (`ENODEV`/`EIO`), for example a USB unplug.
    public static let deviceGone = Code(rawValue: "device_gone")
    /// No buffer arrived within the wait (the device stopped delivering).
    public static let timedOut = Code(rawValue: "timed_out")
    /// A call in the wrong state (stream before open, still before `initializeOutput(.photo)`).
    public static let invalidState = Code(rawValue: "invalid_state")
    /// libv4l2, which V4L2 cameras need, is not installed (its package is named).
    public static let libraryMissing = Code(rawValue: "library_missing")
    /// Any other failed system call.
    public static let systemCallFailed = Code(rawValue: "system_call_failed")
    /// The raw value.
    public var description: String { rawValue }
  }

  /// The kind of failure.
  public var code: Code
  /// One line a person can act on, without the device path.
  public var message: String
  /// The errno value, when a system call failed.
  public var errno: Errno?
  /// The call that failed: an ioctl (`VIDIOC_S_FMT`) or `open`, `mmap`, `poll`.
  public var operation: String?
  /// The device node, e.g. `/dev/video0`.
  public var devicePath: String

  /// Creates an error.
  public init(code: Code, message: String, errno: Errno? = nil, operation: String? = nil, devicePath: String)
  {
    self.code = code
    self.message = message
    self.errno = errno
    self.operation = operation
    self.devicePath = devicePath
  }

  /// One line: `/dev/video9: no such device: … (open: No such file or directory)`.
  public var description: String {
    var cause = ""
    if let operation, let errno {
      cause = " (\(operation): \(errno.name) \(errno.message))"
    } else if let operation {
      cause = " (\(operation))"
    }
    return "\(devicePath): \(message)\(cause)"
  }
}
