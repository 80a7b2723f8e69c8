import Dispatch
import SystemCalls

/// A barrier a fake device call waits at until the test opens it: makes ordering tests deterministic
/// (hold `initializeOutput(.photo)` shut, tap the shutter, then open the gate).
package final class FakeGate: Sendable {
  private struct State {
    var isOpen = false
    var arrivals = 0
    var waiting = 0
  }

  private let state = PThreadMutex(State())
  private let semaphore = DispatchSemaphore(value: 0)

  /// Creates a closed gate (or an open one).
  package init(open: Bool = false) {
    state.withLock { $0.isOpen = open }
  }

  /// Lets every waiting and future caller through.
  package func open() {
    let waiting = state.withLock { s -> Int in
      s.isOpen = true
      defer { s.waiting = 0 }
      return s.waiting
    }
    for _ in 0..<waiting { semaphore.signal() }
  }

  /// Whether the gate is open.
  package var isOpen: Bool { state.withLock { $0.isOpen } }

  /// How many calls have reached the gate.
  package var arrivals: Int { state.withLock { $0.arrivals } }

  /// Waits (polling) until at least `count` calls have reached the gate. False after `timeout`.
  package func waitUntilReached(count: Int = 1, timeout: Duration = .seconds(120)) async -> Bool {
    await waitUntil(timeout: timeout) { self.arrivals >= count }
  }

  /// Counts an arrival, then returns at once when open, else blocks until `open()`.
  /// The fake device calls it; tests may too (to hold a handler, for example).
  package func pass() {
    let mustWait = state.withLock { s -> Bool in
      s.arrivals += 1
      if s.isOpen { return false }
      s.waiting += 1
      return true
    }
    if mustWait { semaphore.wait() }
  }
}
