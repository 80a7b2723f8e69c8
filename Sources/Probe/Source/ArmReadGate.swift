import Dispatch
import SystemCalls

/// The arm-time reads a probe thread owes (X11's, Wayland's): `armed()` asks for one — a ticket —
/// and waits, bounded, until the probe thread has the screen's pixels in hand; the thread
/// answers every ticket up to the latest with one read.
final class ArmReadGate: Sendable {
  private let counts = PThreadMutex((requested: UInt64(0), done: UInt64(0)))
  private let answered = DispatchSemaphore(value: 0)

  /// Asks for a read; returns its ticket.
  func request() -> UInt64 {
    counts.withLock {
      $0.requested += 1
      return $0.requested
    }
  }

  /// The latest ticket not yet answered, or nil (the probe thread's question).
  var pending: UInt64? { counts.withLock { $0.requested > $0.done ? $0.requested : nil } }

  /// The reads up to `ticket` are in hand (or were refused: the arm goes on without them).
  func markDone(upTo ticket: UInt64) {
    counts.withLock { $0.done = max($0.done, ticket) }
    answered.signal()
  }

  /// Wakes a waiter so that it looks at `gone` again (the source stopped or failed).
  func wakeWaiter() { answered.signal() }

  /// Waits until `ticket` is answered, `gone()` is true, or `timeout` ns passed.
  func wait(for ticket: UInt64, timeout: UInt64, unless gone: () -> Bool) {
    let deadline = MonotonicClock.now() + timeout
    while true {
      let done = counts.withLock { $0.done >= ticket } || gone()
      let now = MonotonicClock.now()
      if done || now >= deadline { return }
      _ = answered.wait(timeout: .now() + .nanoseconds(Int(deadline - now)))
    }
  }
}
