/// Where phase events go: a trace file, memory (tests), or nowhere.
public protocol PhaseEventSink: Sendable {
  /// Records one event. Must not block for long: it is called on launch paths.
  func record(_ event: PhaseEvent)
}

/// A sink that drops everything.
public struct DiscardingPhaseEventSink: PhaseEventSink {
  /// Creates the sink.
  public init() {}
  /// Drops the event.
  public func record(_ event: PhaseEvent) {}
}
