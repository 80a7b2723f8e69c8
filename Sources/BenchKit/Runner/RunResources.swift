import HostConditions
import LaunchContract
import SystemCalls
import ThreadTracing

/// What a benchmark holds open while it runs, apart from its settings: each launch condition's
/// control (``LaunchConditionControl``: the cpufreq cap held, the burners running) and the
/// thread-states method (bench's tracefs instance). Opened once the command's settings are
/// prepared (``open(_:)``), shared by every runner of the benchmark (`bench ab`'s two sides
/// prepare each condition once), and closed at its end (``close()``, also when it is released):
/// every condition restored, the tracefs instance removed. A bench killed with SIGKILL leaves
/// those to its guard and the next bench (``LaunchConditionControl``, ``TracefsSession``).
package final class RunResources: Sendable {
  /// How the runs' thread states are recorded (tracefs through bench's instance, `/proc`
  /// samples, or nothing).
  package let threadStates: ThreadStatesMethod
  /// One control per condition.
  let controls: [LaunchCondition: any LaunchConditionControl]
  /// The machine lock's gate, for the conditions that need the whole machine (waiting for it,
  /// or with `--no-wait` refusing).
  package let machine: MachineGate
  /// Whether ``close()`` ran; guarded by its own lock.
  private let closed = PThreadMutex(false)

  /// The resources of `settings`' conditions, with `threadStates` (already open) and the `hot`
  /// condition reading `sensors`.
  package init(
    settings: RunSettings, threadStates: ThreadStatesMethod = .off, sensors: HostSensors = HostSensors()
  ) {
    self.threadStates = threadStates
    var controls: [LaunchCondition: any LaunchConditionControl] = [:]
    for condition in LaunchCondition.allCases {
      switch condition {
      case .cold: controls[condition] = ColdCondition()
      case .loaded: controls[condition] = LoadedCondition(plan: settings.burnerPlan, load: settings.load)
      case .lowPower: controls[condition] = LowPowerCondition(plan: settings.lowPowerPlan)
      case .hot: controls[condition] = HotCondition(sensors: sensors, soakSeconds: settings.soakSeconds)
      case .warm, .relock: controls[condition] = UnpreparedCondition(condition)
      }
    }
    self.controls = controls
    self.machine = MachineGate(waits: settings.waitsForMachine)
    self.conditions = settings.conditions
  }

  /// The conditions asked for, in order.
  let conditions: [LaunchCondition]

  /// What the benchmark's conditions need the whole machine for (`the cpufreq cap and
  /// full-load burners`); nil when none does.
  package var machineUse: String? {
    var uses: [String] = []
    for condition in conditions {
      if let use = control(for: condition).machineUse, !uses.contains(use) { uses.append(use) }
    }
    return uses.isEmpty ? nil : uses.joined(separator: " and ")
  }

  /// Opens `settings`' resources: resolves `--thread-states` (``ThreadStatesMethod/resolve(_:root:)``:
  /// bench's tracefs instance for `auto` and `on`). Returns them, and why `auto` fell back to
  /// `sampled` (for the log).
  /// - Throws: ``TracefsError`` for `on` when tracefs cannot be used.
  package static func open(_ settings: RunSettings) throws(TracefsError) -> (
    resources: RunResources, fallback: String?
  ) {
    let (method, fallback) = try ThreadStatesMethod.resolve(settings.threadStates)
    return (RunResources(settings: settings, threadStates: method), fallback)
  }

  /// The control of `condition`.
  package func control(for condition: LaunchCondition) -> any LaunchConditionControl {
    controls[condition] ?? UnpreparedCondition(condition)
  }

  /// Restores every condition and removes the tracefs instance (once).
  package func close() {
    let first = closed.withLock { closed in
      defer { closed = true }
      return !closed
    }
    guard first else { return }
    for control in controls.values { control.restore() }
    machine.close()
    threadStates.close()
  }

  deinit { close() }
}
