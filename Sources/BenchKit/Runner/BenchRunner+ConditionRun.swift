import Dispatch
import HostConditions
import LaunchContract
import PhaseTrace
import ResultsSchema
import SystemCalls

/// What a `low-power` or `hot` run sets up before its launch and records after it.
struct ConditionRun: Sendable {
  /// Whether the run is a `low-power` one.
  var lowPower = false
  /// `low-power` with a quota: the run's cgroup.
  var group: RunCgroup?
  /// `hot`: the soak's record so far (before the soak, at the spawn).
  var hot: BenchResults.HotRecord?
  /// `hot`: the reading taken when the probe saw the first live frame.
  var firstFrameReading: ReadingBox?
  /// Why the run cannot go on (its cgroup could not be made), with the record to keep.
  var failure: (reason: String, lowPower: BenchResults.LowPowerRecord)?

  /// `hot`: reads the sensors on a background queue, not the compositor's thread.
  func onFirstFrame(_ sensors: HostSensors) -> (@Sendable () -> Void)? {
    guard let box = firstFrameReading else { return nil }
    return { DispatchQueue.global(qos: .userInitiated).async { box.keep(sensors.read()) } }
  }
}

/// A reading kept once, from whichever thread takes it.
final class ReadingBox: Sendable {
  private let storage = PThreadMutex<BenchResults.HostReading?>(nil)
  /// Keeps `reading` unless one is already kept.
  func keep(_ reading: BenchResults.HostReading) { storage.withLock { if $0 == nil { $0 = reading } } }
  /// The kept reading, if any.
  var value: BenchResults.HostReading? { storage.withLock { $0 } }
}

extension BenchRunner {
  /// Sets up `condition`'s part of one run: a `low-power` quota's cgroup, or a `hot` soak (run
  /// here, ended right before the caller spawns). Nil when an interrupt stopped the soak.
  func setUp(_ condition: LaunchCondition, runID: String, interrupted: @Sendable () -> Bool) -> ConditionRun?
  {
    var run = ConditionRun()
    switch condition {
    case .lowPower:
      run.lowPower = true
      switch lowPowerGroup(runID: runID) {
      case .success(let group): run.group = group
      case .failure(let error):
        let reason = "low-power cap not applied: \(error.description)"
        run.failure = (
          reason,
          BenchResults.LowPowerRecord(
            method: settings.lowPowerPlan.methodName, verified: false, reason: reason)
        )
      }
    case .hot:
      guard let hot = soak(interrupted: interrupted) else { return nil }
      run.hot = hot
      run.firstFrameReading = ReadingBox()
    default: break
    }
    return run
  }

  /// `hot`: the soak — one burner per CPU bench may use (the loaded condition's, spinning) for
  /// `settings.soakSeconds`, stopped right before the spawn — with the sensors read before it and
  /// after it. Nil when interrupted; a soak whose burners cannot start is recorded with 0 burners
  /// (and its run fails: it was not soaked).
  func soak(interrupted: @Sendable () -> Bool) -> BenchResults.HotRecord? {
    let sensors = settings.sensors
    let before = sensors.read()
    let started = MonotonicClock.now()
    let burners = try? CPUBurners(plan: .current(kind: .cpu))
    let end = started + UInt64(settings.soakSeconds * 1e9)
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

  /// Writes `setup`'s records into the run: `lowPower` (a cap that did not take effect fails the
  /// run with the reason) and `hot` (the first-frame reading and the app's first
  /// `pressure.level`).
  func record(
    _ setup: ConditionRun, placement: CgroupPlacement?, appEvents: [PhaseEvent],
    into run: inout BenchResults.RunRecord
  ) {
    if setup.lowPower, let lowPower = lowPowerRecord(group: setup.group, placement: placement) {
      run.lowPower = lowPower
      if !lowPower.verified, run.ok {
        run.ok = false
        run.error = lowPower.reason
      }
    }
    if var hot = setup.hot {
      hot.atFirstFrame = setup.firstFrameReading?.value
      if let event = appEvents.first(where: { $0.name == EventName.pressureLevel.rawValue }),
        case .string(let level) = event.fields["level"]
      {
        hot.appPressureLevel = level
      }
      run.hot = hot
      // Without its burners the launch was not soaked: not a hot run.
      if hot.burners == 0, run.ok {
        run.ok = false
        run.error = "hot: the soak's burners did not start; the launch was not soaked"
      }
    }
  }
}

extension Optional where Wrapped == Result<LowPowerPlan, LowPowerUnavailable> {
  /// The method's name for results, `none` without a plan.
  var methodName: String {
    guard case .success(let plan) = self else { return "none" }
    return plan.methodName
  }
}
