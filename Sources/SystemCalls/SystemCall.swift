#if canImport(Glibc)
  import Glibc
#endif

/// The one place where `-1`/`errno` becomes a typed error and `EINTR` is retried
/// (STYLE.md rule 3; in the spirit of swift-system's `valueOrErrno`).
public enum SystemCall {
  /// Runs `body` until it does not fail with `EINTR`. A result of `-1` becomes the thread's
  /// `errno` as an ``Errno``; any other result is returned.
  @inlinable
  public static func retrying<Result: FixedWidthInteger>(_ body: () -> Result) throws(Errno) -> Result {
    while true {
      let result = body()
      if result != -1 { return result }
      let error = Errno.current
      if error != .interrupted { throw error }
    }
  }

  /// Runs `body`, a call that returns its error number instead of setting `errno`
  /// (`posix_spawn`, `clock_nanosleep`, the pthread calls), until it does not return `EINTR`.
  /// Zero is success; any other value is thrown as an ``Errno``.
  @inlinable
  public static func retryingReturnedError(_ body: () -> Int32) throws(Errno) {
    while true {
      let rc = body()
      if rc == 0 { return }
      if rc != EINTR { throw Errno(rawValue: rc) }
    }
  }
}
