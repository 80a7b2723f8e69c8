import PhaseTrace

extension BenchResults {
  /// One phase event of one run, for `RunRecord.timeline` (and so for trace.json and plot.svg).
  public struct TimelineEvent: Codable, Sendable, Hashable {
    /// The event name of the trace protocol, e.g. `session.start_running`.
    public var name: String
    /// `begin`, `end` or `event`.
    public var kind: String
    /// When, in ms since the run's origin (`launch.spawn`, or `relock.unlock`), both on
    /// `CLOCK_MONOTONIC`; negative for events before the origin (e.g. `relock.lock`).
    public var t_ms: Double
    /// The process id of the writer (the runner's own for runner and probe events).
    public var pid: Int32
    /// Who wrote it: `bench`, `app` or `probe` (the track the trace viewer shows it on).
    public var process: String?
    /// The event's fields as text (e.g. `output: photo`), when any.
    public var fields: [String: String]?

    /// Creates an event.
    public init(
      name: String, kind: String, t_ms: Double, pid: Int32, process: String? = nil,
      fields: [String: String]? = nil
    ) {
      self.name = name
      self.kind = kind
      self.t_ms = t_ms
      self.pid = pid
      self.process = process
      self.fields = fields
    }

    /// Converts a trace event: `originNs` is the run's origin on the same CLOCK_MONOTONIC (ns).
    public init(_ event: PhaseEvent, originNs: UInt64, process: String? = nil) {
      let delta = event.ts >= originNs ? Double(event.ts - originNs) : -Double(originNs - event.ts)
      self.init(
        name: event.name, kind: event.kind.rawValue, t_ms: delta / 1_000_000, pid: event.pid,
        process: process ?? TimelineEvent.defaultProcess(for: event.name),
        fields: event.fields.isEmpty ? nil : event.fields.mapValues(\.description))
    }

    /// The writer implied by an event name: `launch.*`/`relock.*` → bench, `display.*` → probe, else app.
    public static func defaultProcess(for name: String) -> String {
      if name.hasPrefix("launch.") || name.hasPrefix("relock.") { return "bench" }
      if name.hasPrefix("display.") { return "probe" }
      return "app"
    }
  }
}
