import ResultsSchema
import SystemCalls

/// A `hot` run's sensor reading at its first live frame: kept once, from whichever thread takes
/// it first.
package final class FirstFrameReading: Sendable {
  /// The reading; guarded by its own lock.
  private let storage = PThreadMutex<BenchResults.HostReading?>(nil)

  /// Creates an empty one.
  package init() {}
  /// Keeps `reading` unless one is already kept.
  package func keep(_ reading: BenchResults.HostReading) {
    storage.withLock { if $0 == nil { $0 = reading } }
  }
  /// The kept reading, if any.
  package var value: BenchResults.HostReading? { storage.withLock { $0 } }
}
