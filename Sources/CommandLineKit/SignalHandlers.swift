#if canImport(Glibc)
  import Glibc
#endif
import Dispatch

/// Turns SIGINT, SIGTERM and the like into calls of a handler on a queue, so that a
/// command-line tool shuts down in order instead of dying mid-write.
package final class SignalHandlers: @unchecked Sendable {
  // @unchecked: `sources` is set once in `init`, before the instance can be shared, and never
  // changes; dispatch sources are thread-safe.
  private let sources: [any DispatchSourceSignal]

  /// Ignores the default action of `signals` and calls `handler` with the signal number on
  /// `queue` each time one arrives (twice for two signals that arrived before the queue ran:
  /// a second Ctrl-C is never merged into the first). Keep the instance alive for as long as you
  /// want handling.
  package init(
    signals: [Int32], queue: DispatchQueue = .global(), handler: @escaping @Sendable (Int32) -> Void
  ) {
    sources = signals.map { sig in
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
      // The handler holds its source (for the count); `deinit` cancels the source, which
      // releases the handler.
      source.setEventHandler {
        for _ in 0..<max(1, source.data) { handler(sig) }
      }
      source.resume()
      return source
    }
  }

  deinit {
    sources.forEach { $0.cancel() }
  }
}
