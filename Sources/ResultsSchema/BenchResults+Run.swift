extension BenchResults {
  /// One run.
  public struct RunRecord: Codable, Sendable {
    /// 1-based run number within the cell.
    public var run: Int
    /// Whether the run counts: nothing failed and the probe saw a live frame. Only ok runs feed
    /// the cell's `phases`.
    public var ok: Bool
    /// Why it failed (signal, exit status, timeout, last event), else nil.
    public var error: String?
    /// Phase name → duration, ms (`CLOCK_MONOTONIC`). Phases that did not happen are absent.
    public var phases: [String: Double]
    /// Event counts of the run: `stale_frames`, `dropped_frames`, `malformed_trace_lines`, …
    public var counts: [String: Int]
    /// The trace file of this run, relative to the results folder, when kept.
    public var trace: String?
    /// Elapsed time of this run as the runner measured it, ms, on `CLOCK_MONOTONIC` ("wall" as in
    /// elapsed, not the wall clock): spawn → app shut down, or unlock → measurement done (relock).
    public var wallMs: Double?
    /// Every phase event of the run, times in ms since the run's origin (`launch.spawn`, or
    /// `relock.unlock` for relock) on `CLOCK_MONOTONIC`. Optional: when present, `trace.json` and
    /// the SVG timeline show the run's real events; without it they fall back to phase durations.
    /// A reader that needs no timelines skips them (``ResultsFile/load(path:timelines:)``).
    public var timeline: [TimelineEvent]?
    /// How the probe found the run's first live frame: `board` or `change` (absent when it found
    /// none).
    public var detection: String?
    /// `low-power` runs: what capped the CPU and whether the cap was read back in force.
    public var lowPower: LowPowerRecord? = nil
    /// `hot` runs: the soak before the spawn and the machine's readings around it.
    public var hot: HotRecord? = nil
    /// Where the launch's threads spent each phase (`thread_states`; issue 27); absent when the
    /// run was made without the instrument.
    public var threadStates: ThreadStatesRecord? = nil
    /// Where the device phases came from, and each source's (`device_phases`; issue 40); absent
    /// when the run had none and no kernel trace.
    public var devicePhases: DevicePhasesRecord? = nil
    /// A camera served by a daemon (`--camera pipewire:PATH`): the daemon's state for the run
    /// (`camera_daemon`; issue 40); absent for a camera the app opens itself.
    public var cameraDaemon: CameraDaemonRecord? = nil

    enum CodingKeys: String, CodingKey {
      case run, ok, error, phases, counts, trace, wallMs, timeline, detection, lowPower, hot
      case threadStates = "thread_states"
      case devicePhases = "device_phases"
      case cameraDaemon = "camera_daemon"
    }
    /// Creates a record.
    public init(
      run: Int, ok: Bool, error: String?, phases: [String: Double], counts: [String: Int],
      trace: String? = nil, wallMs: Double? = nil, timeline: [TimelineEvent]? = nil,
      detection: String? = nil
    ) {
      self.detection = detection
      self.timeline = timeline
      self.run = run
      self.ok = ok
      self.error = error
      self.phases = phases
      self.counts = counts
      self.trace = trace
      self.wallMs = wallMs
    }
  }
}
