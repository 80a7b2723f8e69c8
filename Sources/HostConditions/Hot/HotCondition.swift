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
    let ticksBefore = burners.flatMap { CPUBurners.cpuTicks($0.plan.cpus) }
    let end = started + UInt64(soakSeconds * 1e9)
    while MonotonicClock.now() < end {
      if interrupted() {
        burners?.stop()
        return nil
      }
      MonotonicClock.sleep(nanoseconds: min(100_000_000, end - min(end, MonotonicClock.now())))
    }
    let burnerCPU = burners?.cpuSeconds()
    let ticksAfter = burners.flatMap { CPUBurners.cpuTicks($0.plan.cpus) }
    burners?.stop()
    let seconds = Double(MonotonicClock.now() - started) / 1e9
    let missing = sensors.missing()
    var record = BenchResults.HotRecord(
      soakSeconds: seconds, burners: burners?.count ?? 0, cpus: burners?.plan.cpus ?? [], beforeSoak: before,
      atSpawn: sensors.read(), missing: missing.isEmpty ? nil : missing)
    record.burnerCPUSeconds = burnerCPU
    if let ticksBefore, let ticksAfter, ticksAfter.total > ticksBefore.total {
      record.cpuBusyShare =
        Double(ticksAfter.busy - ticksBefore.busy) / Double(ticksAfter.total - ticksBefore.total)
    }
    return record
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
    if let failure = Self.soakFailure(hot), run.ok {
      run.ok = false
      run.error = failure
    }
  }

  /// The least share of their CPUs the soak's burners must get for a run to count as soaked
  /// where no temperature can be read: half (an idle machine gives them ~100 %)…
  static let leastBurnerShare = 0.5
  /// …unless the CPUs were this busy over the soak whatever ran on them (a machine busy with
  /// other work is loaded, and heats, though the burners got less).
  static let leastBusyShare = 0.9
  /// The least rise of the hottest thermal zone from before the soak to the spawn, °C, where
  /// zones can be read (unless it is at ``hotCelsius`` already).
  static let leastRiseCelsius = 1.0
  /// A zone this hot at the spawn is hot, whatever it read before, °C.
  static let hotCelsius = 80.0

  /// Why `record`'s launch was not soaked, or nil when it was: its burners must have run, and
  /// the soak must show in what the machine measures — the hottest thermal zone risen by
  /// ``leastRiseCelsius`` (or at ``hotCelsius``) where zones can be read, else the burners' CPU
  /// time at least ``leastBurnerShare`` of their CPUs over the soak.
  package static func soakFailure(_ record: BenchResults.HotRecord) -> String? {
    guard record.burners > 0 else {
      return "hot: the soak's burners did not start; the launch was not soaked"
    }
    if let before = record.beforeSoak.thermalCelsius?.values.max(),
      let atSpawn = record.atSpawn.thermalCelsius?.values.max()
    {
      guard atSpawn >= before + leastRiseCelsius || atSpawn >= hotCelsius else {
        return "hot: the soak did not warm the machine: its hottest thermal zone read "
          + "\(tenths(before)) °C before and \(tenths(atSpawn)) °C at the spawn"
      }
      return nil
    }
    guard let cpu = record.burnerCPUSeconds else {
      return "hot: the soak cannot be verified: no thermal zone, and the burners' CPU time could not be read"
    }
    let offered = record.soakSeconds * Double(record.burners)
    let share = offered > 0 ? cpu / offered : 0
    let busy = record.cpuBusyShare ?? 0
    guard share >= leastBurnerShare || busy >= leastBusyShare else {
      return "hot: the soak's burners got \(Int((share * 100).rounded())) % of their CPUs "
        + "(\(tenths(cpu)) s of \(tenths(offered)) s) and the CPUs were busy "
        + "\(Int((busy * 100).rounded())) % of the soak: the machine was not soaked"
    }
    return nil
  }

  /// `value` rounded to tenths, as text.
  static func tenths(_ value: Double) -> String { String((value * 10).rounded() / 10) }
}
