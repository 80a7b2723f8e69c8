#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one clock every phase event is stamped with: `CLOCK_MONOTONIC`, in nanoseconds.
///
/// The runner, the app under test and the probe run in different processes; they agree on
/// time because they all read this clock. The corresponding call is `clock_gettime(CLOCK_MONOTONIC)`.
public enum MonotonicClock {
  /// The current time of `CLOCK_MONOTONIC`, in nanoseconds.
  @inline(__always)
  public static func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
  }

  /// Milliseconds between two clock readings (`later - earlier`, may be negative).
  @inline(__always)
  public static func milliseconds(from earlier: UInt64, to later: UInt64) -> Double {
    (Double(Int64(bitPattern: later &- earlier))) / 1e6
  }
}
