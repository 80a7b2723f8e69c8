#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Opens the file at `path` for appending (close-on-exec), creating it with `mode` (less the
  /// umask) when it is missing and keeping what it holds when it is not, so that lines written by
  /// several processes never interleave. The corresponding call is `open(2)` with
  /// `O_WRONLY | O_APPEND | O_CREAT`.
  /// - Throws: the ``Errno`` of `open` (`ENOENT` for a missing folder, `EACCES`).
  public static func openForAppendingCreatingIfMissing(atPath path: String, mode: mode_t = 0o600)
    throws(Errno)
    -> Int32
  {
    try SystemCall.retrying { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode) }
  }

  /// Opens the file at `path` for reading (close-on-exec). With `refusingLinks`, a symbolic link
  /// as the last component fails with ``Errno/tooManyLinks`` (`ELOOP`) instead of being followed;
  /// with `nonBlocking`, reads never wait (a FIFO opens without a writer). The corresponding call
  /// is `open(2)` with `O_RDONLY`, plus `O_NOFOLLOW` and `O_NONBLOCK`.
  /// - Throws: the ``Errno`` of `open` (`ENOENT`, `EACCES`, `ELOOP`).
  public static func openForReading(
    atPath path: String, refusingLinks: Bool = false, nonBlocking: Bool = false
  )
    throws(Errno) -> Int32
  {
    let flags = O_RDONLY | O_CLOEXEC | (refusingLinks ? O_NOFOLLOW : 0) | (nonBlocking ? O_NONBLOCK : 0)
    return try SystemCall.retrying { open(path, flags) }
  }

  /// At most the first `maxBytes` bytes of the file open as `fd`, read from where its offset
  /// stands to its end or to the limit, whichever comes first (more is left unread, not an
  /// error). The corresponding call is `read(2)`.
  /// - Throws: the ``Errno`` of `read` (`EISDIR`, `EIO`).
  public static func prefix(of fd: Int32, maxBytes: Int) throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while bytes.count < maxBytes {
      let wanted = min(chunk.count, maxBytes - bytes.count)
      let read = chunk.withUnsafeMutableBytes { buffer in
        Result { () throws(Errno) in
          try FileDescriptorIO.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        }
      }
      let count = try read.get()
      if count == 0 { break }
      bytes.append(contentsOf: chunk[..<count])
    }
    return bytes
  }

  /// Whether `fd` is a regular file (not a FIFO, a device, a socket or a folder). The
  /// corresponding call is `fstat(2)`.
  public static func isRegularFile(_ fd: Int32) -> Bool {
    var status = stat()
    return fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }

  /// The size of the file open as `fd`, in bytes, or nil when `fstat(2)` fails.
  public static func size(of fd: Int32) -> Int? {
    var status = stat()
    return fstat(fd, &status) == 0 ? Int(status.st_size) : nil
  }
}

extension FileDescriptorIO {
  /// Whether `fd` is an open descriptor of this process. The corresponding call is
  /// `fcntl(fd, F_GETFD)`.
  public static func isOpen(_ fd: Int32) -> Bool { fcntl(fd, F_GETFD) != -1 }

  /// Makes reads and writes on `fd` never wait (`EAGAIN` instead). Returns false when the flags
  /// could not be read or set. The corresponding calls are `fcntl(fd, F_GETFL)` and
  /// `fcntl(fd, F_SETFL, flags | O_NONBLOCK)`.
  @discardableResult
  public static func setNonBlocking(_ fd: Int32) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
  }

  /// Where the next read or write on `fd` happens, in bytes from the start, or nil when the
  /// descriptor cannot seek. The corresponding call is `lseek(fd, 0, SEEK_CUR)`.
  public static func currentOffset(_ fd: Int32) -> Int? {
    let offset = lseek(fd, 0, SEEK_CUR)
    return offset >= 0 ? Int(offset) : nil
  }
}

extension Errno {
  /// `ELOOP`: too many symbolic links, or a link where `O_NOFOLLOW` refused one.
  public static let tooManyLinks = Errno(rawValue: ELOOP)
}

extension ProcessControl {
  /// This process's id. The corresponding call is `getpid(2)`.
  public static var currentProcessID: Int32 { getpid() }

  /// The value of `name` in this process's environment, or nil when it is unset or empty. The
  /// corresponding call is `getenv(3)`.
  public static func environmentValue(_ name: String) -> String? {
    guard let raw = getenv(name), raw.pointee != 0 else { return nil }
    return String(cString: raw)
  }
}
