import SystemCalls

/// A failure of the X11 display path: a code, one line a person can act on, and the cause —
/// the library, the request or system call, the X error code or `errno` (STYLE.md rule 4).
package struct X11Error: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of failure.
  package enum Code: Sendable, Hashable {
    /// A library (libxcb, libxcb-shm, libxcb-damage, libxcb-render) could not be loaded: install its package.
    case libraryMissing
    /// The X server could not be reached, or refused the connection.
    case cannotConnect
    /// The server lacks an extension the probe needs (DAMAGE).
    case extensionMissing
    /// The server answered a request with an error.
    case requestFailed
    /// The connection broke (the server exited or closed it).
    case connectionLost
    /// The screen's pixel format is one this client does not draw or read (not TrueColor at 32
    /// bits per pixel).
    case unsupportedVisual
    /// A system call (memfd_create, mmap, poll) failed.
    case systemCallFailed
  }

  /// The kind.
  package var code: Code
  /// One line.
  package var message: String
  /// The request or system call that failed (`xcb_shm_attach_fd`, `mmap`), if one did.
  package var call: String?
  /// The X error code the server sent (BadMatch is 8, BadAccess 10), if it sent one.
  package var xErrorCode: UInt8?
  /// The `errno` of the system call that failed, if one did.
  package var errno: Errno?

  /// Creates the error.
  package init(
    _ code: Code, _ message: String, call: String? = nil, xErrorCode: UInt8? = nil, errno: Errno? = nil
  ) {
    self.code = code
    self.message = message
    self.call = call
    self.xErrorCode = xErrorCode
    self.errno = errno
  }

  /// The one line.
  package var description: String { message }
}
