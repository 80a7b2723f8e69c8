/// What `bench history show` and `detect` read from a store: every filter is optional, and
/// nil means all.
package struct HistoryQuery: Sendable, Hashable {
  /// A machine: its fingerprint, a prefix of it, or its host name.
  package var machine: String?
  /// A condition (`warm`).
  package var condition: String?
  /// A configuration (`deferred`).
  package var config: String?
  /// A phase (`first_frame_observed`); nil loads every phase.
  package var phase: String?
  /// Benchmarks at or after this time (ISO 8601, UTC; a date alone is its midnight).
  package var since: String?
  /// Only this branch's benchmarks; nil: every branch but ``bisectBranch``.
  package var branch: String?

  /// The branch `bench bisect` records its probes under. A probe measures an old commit today,
  /// so its benchmark would sit in a nightly series at its commit's time beside results of
  /// other days and other builds: the series leave it out unless it is asked for by name.
  package static let bisectBranch = "bisect"

  /// Creates a query.
  package init(
    machine: String? = nil, condition: String? = nil, config: String? = nil, phase: String? = nil,
    since: String? = nil, branch: String? = nil
  ) {
    self.machine = machine
    self.condition = condition
    self.config = config
    self.phase = phase
    self.since = since
    self.branch = branch
  }
}
