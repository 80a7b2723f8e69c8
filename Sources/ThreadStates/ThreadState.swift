/// Where a thread is, as the scheduler says: on a CPU, runnable (woken or preempted, waiting for
/// a CPU), in uninterruptible sleep (`D`: disk I/O, page faults served from disk), or in any
/// other wait (`S`, idle `I`, stopped, …).
package enum ThreadState: Sendable, Hashable, CaseIterable {
  /// On a CPU.
  case running
  /// Runnable, not yet switched in.
  case runnable
  /// Uninterruptible sleep (`D`).
  case io
  /// Every other wait.
  case sleeping

  /// The state a thread leaves its CPU in, from `sched_switch`'s `prev_state`: `R`/`R+`
  /// (preempted) is runnable, `D` (also `D|K`, `D|W`) is I/O, anything else is sleeping.
  package init(prevState: String) {
    switch prevState.first {
    case "R": self = .runnable
    case "D": self = .io
    default: self = .sleeping
    }
  }
}

/// A phase's interval on the run's clock (CLOCK_MONOTONIC ns): `start` ≤ `end`.
package struct PhaseInterval: Sendable, Hashable {
  /// Where the phase begins, ns.
  package var start: UInt64
  /// Where it ends, ns.
  package var end: UInt64

  /// Creates an interval; `end` below `start` is taken as `start` (an empty phase).
  package init(start: UInt64, end: UInt64) {
    self.start = start
    self.end = max(start, end)
  }

  /// Its length, ns.
  package var nanoseconds: UInt64 { end - start }
}
