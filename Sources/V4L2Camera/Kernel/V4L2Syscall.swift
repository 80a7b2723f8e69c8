import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// errno in one place (STYLE.md rule 3): every kernel call's result passes through here.
enum V4L2Syscall {
  /// Runs `call` until it does not fail with `EINTR`. Returns its result: ≥ 0, or `-errno`.
  @inline(__always)
  static func retryingInterrupts<R: SignedInteger>(_ call: () -> R) -> R {
    while true {
      let result = call()
      if result != R(-EINTR) { return result }
    }
  }

  /// Runs `call` (retrying `EINTR`) and turns a negative result into a ``V4L2Error`` for
  /// `operation` on `path`; `streaming` says whether `ENODEV`/`EIO` mean the device is gone.
  @inline(__always)
  static func perform<R: SignedInteger>(
    _ operation: String, path: String, streaming: Bool = false, _ call: () -> R
  ) throws(V4L2Error) -> R {
    let result = retryingInterrupts(call)
    if result < 0 {
      throw V4L2Error.from(
        errno: Errno(rawValue: Int32(truncatingIfNeeded: 0 - result)), operation: operation, path: path,
        streaming: streaming)
    }
    return result
  }
}
