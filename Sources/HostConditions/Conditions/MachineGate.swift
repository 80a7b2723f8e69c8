import Subprocess
import SystemCalls

/// A benchmark's way through the machine lock (``MachineLock``): a condition that needs the whole
/// machine (``LaunchConditionControl/machineUse``) is prepared only once this bench holds it,
/// and lets go of it once restored. A second bench waits for it, saying so in one line, or — with
/// `--no-wait` (`waits` false) — is refused (``pin(for:)``, before anything runs: exit status 2).
/// A cap is never applied over another bench's, so neither ever saves the other's capped values
/// as its originals.
package final class MachineGate: Sendable {
  /// The lock file.
  package let path: String
  /// Whether a held lock is waited for (false: `--no-wait`, refused).
  package let waits: Bool
  /// The lock while this bench holds it, and whether it is held for the whole benchmark
  /// (``pin(for:)``: ``release()`` keeps it); guarded by its own lock.
  private let state = PThreadMutex<(lock: MachineLock?, pinned: Bool)>((nil, false))
  /// How long a waiter sleeps between its tries, ns.
  private static let pollNanoseconds: UInt64 = 100_000_000

  /// A gate on the lock file `path`, waiting (`waits`) or refusing when it is held.
  package init(path: String = MachineLock.defaultPath, waits: Bool = true) {
    self.path = path
    self.waits = waits
  }

  /// What ``take(for:interrupted:note:)`` came to.
  package enum Outcome: Sendable, Equatable {
    /// This bench holds the machine (or the lock cannot be had at all: noted, and it runs).
    case taken
    /// A signal stopped the wait.
    case interrupted
    /// Another bench holds it and this one does not wait: the line that says so.
    case refused(String)
  }

  /// Whether this bench holds the lock now (for tests and diagnostics).
  package var isHeld: Bool { state.withLock { $0.lock != nil } }

  /// Takes the machine for `use`: at once when it is free (or this bench holds it already);
  /// else, when the gate waits, says so on `note` once and tries every 100 ms until it is free
  /// or `interrupted()`; else refuses. A lock file that cannot be opened is noted and the
  /// condition runs without the lock.
  package func take(for use: String, interrupted: () -> Bool, note: (String) -> Void) -> Outcome {
    var waiting = false
    while true {
      if state.withLock({ $0.lock != nil }) { return .taken }
      switch tryTake(for: use) {
      case .success(true):
        return .taken
      case .success(false):
        let holder = MachineLock.holder(atPath: path)
        guard waits else { return .refused(refusal(holder: holder, use: use)) }
        if !waiting {
          waiting = true
          note(
            "bench: waiting for the machine: \(holder.description) (\(path)); this bench needs it for \(use) (--no-wait refuses instead)"
          )
        }
      case .failure(let error):
        note(
          "bench: cannot take the machine lock \(path) (\(error.name), \(error.message)): \(use) without it")
        return .taken
      }
      if interrupted() { return .interrupted }
      MonotonicClock.sleep(nanoseconds: Self.pollNanoseconds)
    }
  }

  /// Takes the machine at once for the whole benchmark (`--no-wait`: a bench that must not wait
  /// is refused before it runs anything, not half-way through). Returns the refusal's line when
  /// another bench holds it; nil when this bench holds it now (or cannot lock at all).
  package func pin(for use: String) -> String? {
    switch tryTake(for: use) {
    case .success(true):
      state.withLock { $0.pinned = true }
      return nil
    case .success(false): return refusal(holder: MachineLock.holder(atPath: path), use: use)
    case .failure: return nil
    }
  }

  /// Lets go of the machine after a condition, unless it is held for the whole benchmark.
  package func release() {
    let lock = state.withLock { s -> MachineLock? in
      guard !s.pinned else { return nil }
      defer { s.lock = nil }
      return s.lock
    }
    withExtendedLifetime(lock) {}
  }

  /// Lets go of the machine, pinned or not (the benchmark's end).
  package func close() {
    let lock = state.withLock { s -> MachineLock? in
      defer { s = (nil, false) }
      return s.lock
    }
    withExtendedLifetime(lock) {}
  }

  /// One try: true when this bench holds the lock now, false when another does.
  private func tryTake(for use: String) -> Result<Bool, Errno> {
    do {
      switch try MachineLock.take(atPath: path, for: use) {
      case .success(let lock):
        state.withLock { $0.lock = lock }
        // A cap of this bench's is written back by its guard under the same lock.
        ProcessGuard.running?.lockBeforeRestoring(path)
        return .success(true)
      case .failure: return .success(false)
      }
    } catch {
      return .failure(error)
    }
  }

  /// The line of a bench refused with `--no-wait`.
  func refusal(holder: MachineLock.Holder, use: String) -> String {
    "the machine is in use: \(holder.description) (\(path)); this bench needs it for \(use): run it again when that bench ends, or without --no-wait to wait"
  }
}
