import ResultsSchema

/// One run's part of its condition, from ``LaunchConditionControl/beginRun(_:interrupted:)``:
/// what the spawn needs (a cgroup, a first-frame callback), and the check, once the run is over,
/// that the condition held for it.
package protocol ConditionRunState: Sendable {
  /// Why the run cannot go on (the condition could not be set up for it); nil when it can.
  var failure: String? { get }
  /// `low-power` with a quota: the cgroup the app is spawned into.
  var cgroup: RunCgroup? { get }
  /// Called from the compositor's thread when the probe sees the first live frame; it must not
  /// block. Nil: nothing to do then.
  var onFirstFrame: (@Sendable () -> Void)? { get }

  /// Writes into `record` what the condition did for the run and whether it held; a condition
  /// that did not hold fails a run that was ok, with the reason.
  func verify(_ observed: ConditionRunObservation, into record: inout BenchResults.RunRecord)
}

extension ConditionRunState {
  /// Nothing failed.
  package var failure: String? { nil }
  /// No cgroup.
  package var cgroup: RunCgroup? { nil }
  /// Nothing to do at the first frame.
  package var onFirstFrame: (@Sendable () -> Void)? { nil }
}

/// The run of a condition that sets nothing up per run (warm, relock, loaded).
package struct UnpreparedRun: ConditionRunState {
  /// Creates the state.
  package init() {}
  /// Nothing to check.
  package func verify(_ observed: ConditionRunObservation, into record: inout BenchResults.RunRecord) {}
}
