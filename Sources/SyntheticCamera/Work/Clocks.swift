import Glibc

/// The two clocks the synthetic camera spends its costs on.
enum Clocks {
  /// `CLOCK_MONOTONIC`, ns (the clock of every phase event and frame capture time).
  @inline(__always)
  static func monotonicNow() -> UInt64 { read(CLOCK_MONOTONIC) }

  /// The calling thread's CPU time (user + system), ns. The corresponding call is
  /// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
  @inline(__always)
  static func threadCPUNow() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

  @inline(__always)
  private static func read(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// Sleeps until `deadline` (`CLOCK_MONOTONIC`, ns), retrying after signals. The corresponding
  /// call is `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`: an absolute deadline, so
  /// repeated sleeps do not drift.
  static func sleep(until deadline: UInt64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    while true {
      let rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
      if rc != EINTR { return }
    }
  }

  /// Sleeps until `deadline` (ns) in slices of at most `slice` ns, returning early (false)
  /// as soon as `shouldStop()` is true.
  static func sleep(until deadline: UInt64, slice: UInt64 = 5_000_000, shouldStop: () -> Bool) -> Bool {
    while true {
      if shouldStop() { return false }
      let now = monotonicNow()
      if now >= deadline { return true }
      sleep(until: min(deadline, now + slice))
    }
  }
}
