#if canImport(Glibc)
  import Glibc
#endif

extension FileSystem {
  /// Takes an exclusive lock on the open file (or folder) `fd` without waiting: true when taken,
  /// false when another open file description holds it. The corresponding call is
  /// `flock(fd, LOCK_EX | LOCK_NB)`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `flock` other than `EWOULDBLOCK` (`EBADF`, `ENOLCK`).
  public static func tryLockExclusively(_ fd: Int32) throws(Errno) -> Bool {
    do {
      _ = try SystemCall.retrying { flock(fd, LOCK_EX | LOCK_NB) }
      return true
    } catch  where error == Errno(rawValue: EWOULDBLOCK) {
      return false
    }
  }
}
