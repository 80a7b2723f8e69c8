#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Opens the file at `path` for appending (close-on-exec) and returns its descriptor; with
  /// `creating`, creates it with `mode` (less the umask) or empties it first. A symbolic link at
  /// `path` is refused, never followed: a results file (the run journal) is bench's own file, not
  /// wherever a link planted in its folder points. The corresponding call is `open(2)` with
  /// `O_WRONLY | O_APPEND | O_NOFOLLOW`, plus `O_CREAT | O_TRUNC` when creating.
  /// - Throws: the ``Errno`` of `open` (`ENOENT`, `EACCES`, `ELOOP` for a link).
  public static func openForAppending(atPath path: String, creating: Bool, mode: mode_t = 0o644) throws(Errno)
    -> Int32
  {
    let flags = O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | (creating ? O_CREAT | O_TRUNC : 0)
    return try SystemCall.retrying { open(path, flags, mode) }
  }

  /// Flushes `fd`'s written data (not all its metadata) to the device. The corresponding call is
  /// `fdatasync(2)`.
  /// - Throws: the ``Errno`` of `fdatasync` (`EIO`, `ENOSPC`).
  public static func synchronizeData(_ fd: Int32) throws(Errno) {
    _ = try SystemCall.retrying { fdatasync(fd) }
  }

  /// Cuts the file open as `fd` to `length` bytes. The corresponding call is `ftruncate(2)`.
  /// - Throws: the ``Errno`` of `ftruncate`.
  public static func truncate(_ fd: Int32, toLength length: Int) throws(Errno) {
    _ = try SystemCall.retrying { ftruncate(fd, off_t(length)) }
  }
}
