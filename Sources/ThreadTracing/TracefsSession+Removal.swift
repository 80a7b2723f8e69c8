import SystemCalls

extension TracefsSession {
  /// How long ``close()`` retries an instance the kernel holds busy, ms: the guard retries
  /// for 30 s more once bench is gone.
  package static let closeRetryMilliseconds = 1000

  /// Removes the instance folder `path` with `rmdir`, retrying while the kernel holds it busy
  /// (`EBUSY`: a reader of its files not yet gone) for up to ``closeRetryMilliseconds``.
  /// Returns true when it is gone (or was never there).
  package static func removeInstance(_ path: String, retryMilliseconds: Int = closeRetryMilliseconds) -> Bool
  {
    let deadline = MonotonicClock.now() &+ UInt64(retryMilliseconds) * 1_000_000
    while true {
      do {
        try FileSystem.removeDirectory(atPath: path)
        return true
      } catch {
        if error == .noSuchFile { return true }
        if error != .busy || MonotonicClock.now() >= deadline { return false }
        MonotonicClock.sleep(nanoseconds: 20_000_000)
      }
    }
  }
}
