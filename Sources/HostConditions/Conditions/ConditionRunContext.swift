import PhaseTrace

/// What a condition needs of the runner to set up one run.
package struct ConditionRunContext: Sendable {
  /// The run's name (`cold-deferred-3`): a `low-power` run's cgroup carries it.
  package var runID: String
  /// bench's pid: a `low-power` run's cgroup carries it, so the next bench knows whose it was.
  package var benchPID: Int32
  /// cold: the files the run evicts (the runner's choice: the program, its libraries, what its
  /// apps were seen to map).
  package var evictionFiles: @Sendable () -> Set<String>
  /// cold: marks the app's own state cold (the synthetic camera's power state).
  package var markCold: @Sendable () -> Void

  /// Creates a context.
  package init(
    runID: String, benchPID: Int32, evictionFiles: @escaping @Sendable () -> Set<String> = { [] },
    markCold: @escaping @Sendable () -> Void = {}
  ) {
    self.runID = runID
    self.benchPID = benchPID
    self.evictionFiles = evictionFiles
    self.markCold = markCold
  }
}

/// What the runner saw of one run, for ``ConditionRunState/verify(_:into:)``.
package struct ConditionRunObservation: Sendable {
  /// `low-power` with a quota: how the app entered its run's cgroup; nil otherwise.
  package var placement: CgroupPlacement?
  /// `low-power` with a quota: the CPU the app's cgroup got, measured before the app was
  /// stopped; nil otherwise.
  package var cpuUsage: CgroupCPUUsage?
  /// The app's own trace events.
  package var appEvents: [PhaseEvent]
  /// The files the app had mapped by its first frame.
  package var mappedFiles: Set<String>

  /// Creates an observation (empty: a run that never launched).
  package init(
    placement: CgroupPlacement? = nil, cpuUsage: CgroupCPUUsage? = nil, appEvents: [PhaseEvent] = [],
    mappedFiles: Set<String> = []
  ) {
    self.placement = placement
    self.cpuUsage = cpuUsage
    self.appEvents = appEvents
    self.mappedFiles = mappedFiles
  }
}
