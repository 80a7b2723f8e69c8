import HostConditions
import LaunchContract
import ResultsSchema
import Subprocess

/// What a benchmark session asks of a runner: one launch run (cold, warm, loaded), and a relock
/// cell's long-lived app. ``BenchRunner`` launches real processes; a fake that answers at once
/// lets a benchmark measure the session's own bookkeeping per run.
package protocol RunPerforming: Sendable {
  /// Runs one launch of `config` under `condition`; nil when `interrupted()` stopped it.
  func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome?

  /// Launches the app of a relock cell and waits until it is ready to be locked and unlocked.
  func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  ) -> Result<any RelockRunning, RunnerError>

  /// The control of `condition` (``LaunchConditionControl``): the condition loop prepares it
  /// before the condition's first run and restores it after the last.
  func control(for condition: LaunchCondition) -> any LaunchConditionControl

  /// The gate to the machine lock of the conditions that need the whole machine; nil: none is
  /// taken.
  var machine: MachineGate? { get }

  /// Leaves `pids` out of the thread-states trace from now on (a condition's burners).
  func leaveUntraced(_ pids: [Int32])
}

extension RunPerforming {
  /// A condition that changes nothing (a runner that launches nothing real).
  package func control(for condition: LaunchCondition) -> any LaunchConditionControl {
    UnpreparedCondition(condition)
  }

  /// No machine lock (a runner that launches nothing real).
  package var machine: MachineGate? { nil }

  /// Nothing traced (a runner that launches nothing real).
  package func leaveUntraced(_ pids: [Int32]) {}
}

/// A relock cell's app, launched once: each run unlocks it, measures, and locks it again.
package protocol RelockRunning: Sendable {
  /// One relock run; nil when `interrupted()` stopped it.
  func run(number: Int, interrupted: @Sendable () -> Bool) -> RunOutcome?
  /// Ends the app. Returns how many processes it had left that were killed when it ended (nil:
  /// none could be counted, bench being no subreaper).
  func close() -> Int?
}

/// The outcome of one run.
package struct RunOutcome: Sendable {
  /// The record for results.json.
  package var record: BenchResults.RunRecord
  /// Whether the compositor ran with real-time priority.
  package var realtime: Bool

  /// Creates an outcome.
  package init(record: BenchResults.RunRecord, realtime: Bool) {
    self.record = record
    self.realtime = realtime
  }
}
