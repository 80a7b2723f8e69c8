import Dispatch
import LaunchContract
import ResultsSchema
import SystemCalls

/// The `hot` condition: before each launch a soak — one burner per CPU bench may use (the loaded
/// condition's, spinning) for `soakSeconds`, stopped right before the spawn — with the sensors
/// read before it, at the spawn, and when the probe sees the first live frame.
package final class HotCondition: LaunchConditionControl {
  package var condition: LaunchCondition { .hot }
  /// The soak heats the whole machine.
  package var machineUse: String? { "the hot soak" }
  /// What the condition reads (thermal zones, frequencies, PSI).
  package let sensors: HostSensors
  /// How long each soak runs, seconds.
  package let soakSeconds: Double

  /// The control of `hot`: soaks of `soakSeconds`, read from `sensors`.
  package init(sensors: HostSensors = HostSensors(), soakSeconds: Double) {
    self.sensors = sensors
    self.soakSeconds = soakSeconds
  }

  /// Nothing for the whole condition: every run soaks.
  package func prepare() -> ConditionPreparation { ConditionPreparation() }

  /// The run's soak; nil when interrupted.
  package func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool)
    -> (any ConditionRunState)?
  {
    guard let record = soak(interrupted: interrupted) else { return nil }
    return HotRun(record: record, sensors: sensors)
  }

  /// Nothing to restore: the soak's burners are stopped before each spawn.
  package func restore() {}

  /// The soak and the readings around it. Nil when interrupted; a soak whose burners cannot
  /// start is recorded with 0 burners (and its run fails: it was not soaked).
  func soak(interrupted: @Sendable () -> Bool) -> BenchResults.HotRecord? {
    let before = sensors.read()
    let started = MonotonicClock.now()
    let burners = try? CPUBurners(plan: .current(kind: .cpu))
    let end = started + UInt64(soakSeconds * 1e9)
    while MonotonicClock.now() < end {
      if interrupted() {
        burners?.stop()
        return nil
      }
      MonotonicClock.sleep(nanoseconds: min(100_000_000, end - min(end, MonotonicClock.now())))
    }
    burners?.stop()
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    let missing = sensors.missing()
    return BenchResults.HotRecord(
      soakSeconds: seconds, burners: burners?.count ?? 0, cpus: burners?.plan.cpus ?? [], beforeSoak: before,
      atSpawn: sensors.read(), missing: missing.isEmpty ? nil : missing)
  }
}

/// One `hot` run: the soak's record, and the reading taken at its first live frame.
package struct HotRun: ConditionRunState {
  /// The soak's record so far (before the soak, at the spawn).
  let record: BenchResults.HotRecord
  /// What the readings come from.
  let sensors: HostSensors
  /// The reading taken when the probe saw the first live frame.
  let firstFrameReading = FirstFrameReading()

  /// Reads the sensors on a background queue, not the compositor's thread.
  package var onFirstFrame: (@Sendable () -> Void)? {
    let (reading, sensors) = (firstFrameReading, sensors)
    return { DispatchQueue.global(qos: .userInitiated).async { reading.keep(sensors.read()) } }
  }

  /// Writes `hot`: the first-frame reading and the app's first `pressure.level`. Without its
  /// burners the launch was not soaked: not a hot run, and it fails.
  package func verify(_ observed: ConditionRunObservation, into run: inout BenchResults.RunRecord) {
    var hot = record
    hot.atFirstFrame = firstFrameReading.value
    if let event = observed.appEvents.first(where: { $0.name == EventName.pressureLevel.rawValue }),
      case .string(let level) = event.fields["level"]
    {
      hot.appPressureLevel = level
    }
    run.hot = hot
    if hot.burners == 0, run.ok {
      run.ok = false
      run.error = "hot: the soak's burners did not start; the launch was not soaked"
    }
  }
}
