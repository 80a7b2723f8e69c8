import HostConditions
import LaunchContract

/// The one loop over a benchmark's conditions, shared by `bench` (``BenchSession``), `bench ab`
/// and `bench bisect` (``ABSession``): each condition in turn, prepared before its runs (each
/// runner's control once: `bench ab`'s sides share theirs) and restored after them, interrupted
/// or not. A condition that needs the whole machine (``LaunchConditionControl/machineUse``) is
/// prepared only once the runners' ``MachineGate`` holds the machine lock, and lets go of it once
/// restored; a wait says so in one line.
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
      // What needs the whole machine waits for the machine lock (or, --no-wait, is refused).
      let uses = controls.compactMap(\.machineUse)
      let machine = uses.isEmpty ? nil : runners.lazy.compactMap(\.machine).first
      if let machine {
        switch machine.take(
          for: uses.joined(separator: " and "), interrupted: interrupted, note: progress.notice)
        {
        case .taken: break
        case .interrupted: return
        case .refused(let line):
          progress.notice("bench: " + line)
          return
        }
      }
      var preparation = ConditionPreparation()
      for control in controls {
        let prepared = control.prepare()
        if let note = prepared.note { progress.note(note) }
        preparation.burners = preparation.burners ?? prepared.burners
        preparation.untraced += prepared.untraced
      }
      if !preparation.untraced.isEmpty {
        for runner in runners { runner.leaveUntraced(preparation.untraced) }
      }
      defer {
        for control in controls { control.restore() }
        machine?.release()
      }
      guard body(condition, preparation) else { break }
    }
  }
}
