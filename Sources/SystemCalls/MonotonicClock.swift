#if canImport(Glibc)
  import Glibc
#endif

/// The one clock every phase event is stamped with: `CLOCK_MONOTONIC`, in nanoseconds, and the
/// absolute-deadline sleep on it.
///
/// The runner, the app under test and the probe run in different processes; they agree on
/// time because they all read this clock. The corresponding call is `clock_gettime(CLOCK_MONOTONIC)`.
public enum MonotonicClock {
  /// The current time of `CLOCK_MONOTONIC`, in nanoseconds.
  @inline(__always)
  public static func now() -> UInt64 { read(CLOCK_MONOTONIC) }

  /// The calling thread's CPU time (user + system), in nanoseconds. The corresponding call is
  /// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`.
  @inline(__always)
  public static func threadCPUTime() -> UInt64 { read(CLOCK_THREAD_CPUTIME_ID) }

  /// Milliseconds between two clock readings (`later - earlier`, negative when `later` is earlier).
  @inline(__always)
  public static func milliseconds(from earlier: UInt64, to later: UInt64) -> Double {
    (Double(Int64(bitPattern: later &- earlier))) / 1e6
  }

  /// Sleeps until `deadline` (`CLOCK_MONOTONIC`, ns), retrying after signals. The corresponding
  /// call is `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)`: an absolute deadline, so
  /// repeated sleeps do not drift and a signal does not lengthen the wait.
  public static func sleep(until deadline: UInt64) {
    var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
    // The only other failure is EINVAL, which a timespec built from a UInt64 cannot cause.
    try? SystemCall.retryingReturnedError { clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) }
  }

  /// Sleeps for `nanoseconds` from now, as an absolute deadline (see ``sleep(until:)``).
  public static func sleep(nanoseconds: UInt64) { sleep(until: now() &+ nanoseconds) }

  /// Sleeps until `deadline` (`CLOCK_MONOTONIC`, ns) in slices of at most `slice` ns, returning
  /// early (false) as soon as `shouldStop()` is true; true when the deadline was reached.
  public static func sleep(
    until deadline: UInt64, slice: UInt64 = 5_000_000, shouldStop: () -> Bool
  ) -> Bool {
    while true {
      if shouldStop() { return false }
      let now = now()
      if now >= deadline { return true }
      sleep(until: min(deadline, now &+ slice))
    }
  }

  @inline(__always)
  static func read(_ clock: clockid_t) -> UInt64 {
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }
}
