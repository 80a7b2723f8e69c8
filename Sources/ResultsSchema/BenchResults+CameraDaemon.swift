extension BenchResults {
  /// The daemon that served a run its camera (`--camera pipewire:PATH`; issue 40), and whether it
  /// was in the state the condition asks for when the app was spawned: cold, a daemon started for
  /// the run; every other condition, the daemon that served the runs before. Either way its node
  /// suspended: no process of the daemon held the device open (read from `/proc/PID/fd`).
  public struct CameraDaemonRecord: Codable, Sendable, Hashable {
    /// The daemon: `pipewire`.
    public var daemon: String
    /// `started` (a daemon started for this run) or `running` (the one the runs before had).
    public var state: String
    /// Whether the state is the one the run's condition asks for and the device was closed at the
    /// spawn; a run that is not verified fails with ``reason``.
    public var verified: Bool
    /// Why it is not verified (or what happened to the daemon); absent when verified.
    public var reason: String?
    /// The daemon's pid.
    public var pid: Int?
    /// Which daemon of the benchmark this was (1 for the first started).
    public var generation: Int?
    /// `started`: from the daemon's spawn to its camera node listed, ms (before the run's origin:
    /// not part of the launch).
    public var startToReadyMs: Double?
    /// Waited before the spawn for the node to be suspended (the device closed), ms.
    public var suspendWaitMs: Double?
    /// No process of the daemon held the device open at the spawn.
    public var deviceClosed: Bool?

    enum CodingKeys: String, CodingKey {
      case daemon, state, verified, reason, pid, generation
      case startToReadyMs = "start_to_ready_ms"
      case suspendWaitMs = "suspend_wait_ms"
      case deviceClosed = "device_closed"
    }

    /// Creates a record.
    public init(daemon: String, state: String, verified: Bool, reason: String? = nil) {
      self.daemon = daemon
      self.state = state
      self.verified = verified
      self.reason = reason
    }
  }
}
