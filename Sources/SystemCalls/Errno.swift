#if canImport(Glibc)
  import Glibc
#endif

/// An `errno` value: what a failed system call said, as a typed value that errors carry
/// (STYLE.md rule 3), not only as message text.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The raw `errno` number.
  public var rawValue: Int32

  /// Wraps `rawValue`.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The calling thread's current `errno`.
  public static var current: Errno { Errno(rawValue: errno) }

  /// Sets the calling thread's `errno` to 0, so that a library call that reports failure
  /// without it can be told apart from one whose system call set it.
  public static func clear() { errno = 0 }

  /// The C name of the value (`ENOENT`), or `errno N` for one this table does not know.
  public var name: String { Self.names[rawValue] ?? "errno \(rawValue)" }

  /// The C library's text for the value (`strerror`), e.g. "No such file or directory".
  public var message: String { String(cString: strerror(rawValue)) }

  /// The C library's text for the value, as `strerror` gives it.
  public var description: String { message }

  /// `EINTR`: a signal interrupted the call.
  public static let interrupted = Errno(rawValue: EINTR)
  /// `EAGAIN`: the call would block.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
  /// `EBADF`: not an open file descriptor.
  public static let badFileDescriptor = Errno(rawValue: EBADF)
  /// `ENOENT`: no such file or directory.
  public static let noSuchFile = Errno(rawValue: ENOENT)
  /// `EEXIST`: the file (or shared-memory object) already exists.
  public static let fileExists = Errno(rawValue: EEXIST)
  /// `EPIPE`: the reading end of a pipe is closed.
  public static let brokenPipe = Errno(rawValue: EPIPE)
  /// `EBUSY`: the resource is in use (a kernel folder with a reader, a mount).
  public static let busy = Errno(rawValue: EBUSY)

  static let names: [Int32: String] = [
    EPERM: "EPERM", ENOENT: "ENOENT", ESRCH: "ESRCH", EINTR: "EINTR", EIO: "EIO", ENXIO: "ENXIO",
    E2BIG: "E2BIG", ENOEXEC: "ENOEXEC", EBADF: "EBADF", ECHILD: "ECHILD", EAGAIN: "EAGAIN",
    ENOMEM: "ENOMEM", EACCES: "EACCES", EFAULT: "EFAULT", EBUSY: "EBUSY", EEXIST: "EEXIST",
    ENODEV: "ENODEV", ENOTDIR: "ENOTDIR", EISDIR: "EISDIR", EINVAL: "EINVAL", ENFILE: "ENFILE",
    EMFILE: "EMFILE", ENOTTY: "ENOTTY", EFBIG: "EFBIG", ENOSPC: "ENOSPC", ESPIPE: "ESPIPE",
    EROFS: "EROFS", EPIPE: "EPIPE", ERANGE: "ERANGE", ENAMETOOLONG: "ENAMETOOLONG", ENOSYS: "ENOSYS",
    ELOOP: "ELOOP", EOVERFLOW: "EOVERFLOW", ETIMEDOUT: "ETIMEDOUT", EDQUOT: "EDQUOT",
  ]
}
