import Synchronization
import SystemCalls

/// A sink that keeps events in memory: for tests, and for apps that inspect their own trace.
/// A real target, like swift-log's `InMemoryLogging` (STYLE.md rule 7).
public final class InMemoryTrace: PhaseEventSink {
  private let storage = PThreadMutex<[PhaseEvent]>([])

  /// Creates an empty trace.
  public init() {}

  /// Keeps `event`.
  public func record(_ event: PhaseEvent) {
    storage.withLock { $0.append(event) }
  }

  /// Everything recorded so far, in recording order.
  public var events: [PhaseEvent] { storage.withLock { $0 } }

  /// The names of the events recorded so far, in order (with `:begin`/`:end` suffixes for intervals).
  public var timeline: [String] {
    events.map { e in
      let output = e.fields["output"].map { "(\($0))" } ?? ""
      switch e.kind {
      case .event: return e.name + output
      case .begin: return e.name + output + ":begin"
      case .end: return e.name + output + ":end"
      }
    }
  }
}
