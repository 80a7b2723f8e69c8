import HostConditions
import LaunchContract

/// The one loop over a benchmark's conditions, shared by `bench` (``BenchSession``), `bench ab`
/// and `bench bisect` (``ABSession``): each condition in turn, prepared before its runs (each
/// runner's control once: `bench ab`'s sides share theirs) and restored after them, interrupted
/// or not.
struct ConditionLoop {
  /// The conditions, in order.
  let conditions: [LaunchCondition]
  /// The runners whose conditions are prepared.
  let runners: [any RunPerforming]
  /// Where a condition that could not be prepared is noted.
  let progress: ProgressReporter
  /// Polled before each condition.
  let interrupted: @Sendable () -> Bool

  /// Runs `body` for each condition, with the condition prepared (what the preparation did is
  /// its second argument); `body` returns false to stop the loop (an interrupt).
  func run(_ body: (LaunchCondition, ConditionPreparation) -> Bool) {
    for condition in conditions {
      if interrupted() { break }
      var controls: [any LaunchConditionControl] = []
      for runner in runners {
        let control = runner.control(for: condition)
        if !controls.contains(where: { $0 === control }) { controls.append(control) }
      }
      var preparation = ConditionPreparation()
      for control in controls {
        let prepared = control.prepare()
        if let note = prepared.note { progress.note(note) }
        preparation.burners = preparation.burners ?? prepared.burners
      }
      defer { for control in controls { control.restore() } }
      guard body(condition, preparation) else { break }
    }
  }
}
