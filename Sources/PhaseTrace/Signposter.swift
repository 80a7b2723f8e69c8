import LaunchContract
import SystemCalls

/// Stamps events with the clock and this process's pid and hands them to a sink.
///
/// ```swift
/// let signposter = Signposter(sink: writer)
/// signposter.begin(.sessionStartRunning)
/// session.startRunning()
/// signposter.end(.sessionStartRunning)
/// ```
public struct Signposter: Sendable {
  /// Where the events go.
  public let sink: any PhaseEventSink
  /// The pid written into every event.
  public let pid: Int32

  /// Creates a signposter writing to `sink`.
  public init(sink: any PhaseEventSink, pid: Int32 = ProcessControl.currentProcessID) {
    self.sink = sink
    self.pid = pid
  }

  /// A signposter that records nothing.
  public static let disabled = Signposter(sink: DiscardingPhaseEventSink())

  /// Records an event of `kind` now (or at `ts`, CLOCK_MONOTONIC ns). `name` may be any name;
  /// the protocol's own are ``EventName``s.
  public func emit(
    _ name: String, _ kind: PhaseEventKind, fields: [String: PhaseFieldValue] = [:],
    at ts: UInt64? = nil
  ) {
    sink.record(
      PhaseEvent(ts: ts ?? MonotonicClock.now(), name: name, kind: kind, pid: pid, fields: fields))
  }

  /// Opens the interval `name`.
  public func begin(_ name: String, fields: [String: PhaseFieldValue] = [:]) {
    emit(name, .begin, fields: fields)
  }

  /// Closes the interval `name`.
  public func end(_ name: String, fields: [String: PhaseFieldValue] = [:]) {
    emit(name, .end, fields: fields)
  }

  /// Marks an instant (now, or at `ts`, CLOCK_MONOTONIC ns).
  public func event(_ name: String, fields: [String: PhaseFieldValue] = [:], at ts: UInt64? = nil) {
    emit(name, .event, fields: fields, at: ts)
  }

  /// Runs `body` inside a begin/end pair named `name`; the end is written even if `body` throws.
  public func interval<T>(
    _ name: String, fields: [String: PhaseFieldValue] = [:], _ body: () throws -> T
  ) rethrows -> T {
    begin(name, fields: fields)
    defer { end(name, fields: fields) }
    return try body()
  }

  /// Opens the protocol interval `name`.
  public func begin(_ name: EventName, fields: [String: PhaseFieldValue] = [:]) {
    begin(name.rawValue, fields: fields)
  }

  /// Closes the protocol interval `name`.
  public func end(_ name: EventName, fields: [String: PhaseFieldValue] = [:]) {
    end(name.rawValue, fields: fields)
  }

  /// Marks the protocol instant `name` (now, or at `ts`, CLOCK_MONOTONIC ns).
  public func event(_ name: EventName, fields: [String: PhaseFieldValue] = [:], at ts: UInt64? = nil) {
    event(name.rawValue, fields: fields, at: ts)
  }

  /// Runs `body` inside the protocol interval `name`; the end is written even if `body` throws.
  public func interval<T>(
    _ name: EventName, fields: [String: PhaseFieldValue] = [:], _ body: () throws -> T
  ) rethrows -> T {
    try interval(name.rawValue, fields: fields, body)
  }
}
