import Dispatch
import SystemCalls

/// The messages on their way to the process guard, in order, none dropped: each is written to
/// the guard's non-blocking pipe as far as it fits; what does not fit waits here, ahead of every
/// later message, and a flusher off the caller's thread writes it as the guard reads. Bench never
/// waits on the guard, and the guard never sees half a line followed by another.
package final class GuardOutbox: Sendable {
  private let fd: Int32
  /// The bytes not yet written, and whether a flusher is writing them.
  private let state = PThreadMutex<(pending: [UInt8], flushing: Bool)>(([], false))

  /// An outbox on the write end `fd` (non-blocking) of the guard's pipe.
  package init(fd: Int32) { self.fd = fd }

  /// Queues `line` and a newline, and writes what fits now.
  package func send(_ line: String) {
    let start = state.withLock { s -> Bool in
      s.pending += Array(line.utf8) + [UInt8(ascii: "\n")]
      guard !s.flushing else { return false }
      guard writeNow(&s.pending) else { return false }
      s.flushing = true
      return true
    }
    if start { DispatchQueue.global(qos: .utility).async { self.flush() } }
  }

  /// The bytes not yet written (for tests and diagnostics).
  package var pendingBytes: Int { state.withLock { $0.pending.count } }

  /// Writes what fits of `pending` and drops what was written. Returns true when some is left
  /// (and the reader is still there).
  private func writeNow(_ pending: inout [UInt8]) -> Bool {
    do {
      let n = try FileDescriptorIO.writeAvailable(fd, pending[...])
      pending.removeFirst(n)
      return !pending.isEmpty
    } catch {
      // The guard is gone (EPIPE): nobody is left to tell.
      pending.removeAll()
      return false
    }
  }

  /// Writes the pending bytes as the pipe takes them, until none are left.
  private func flush() {
    while true {
      _ = try? FileDescriptorIO.waitUntilWritable(fd, milliseconds: 100)
      let more = state.withLock { s -> Bool in
        s.flushing = writeNow(&s.pending)
        return s.flushing
      }
      if !more { return }
    }
  }
}
