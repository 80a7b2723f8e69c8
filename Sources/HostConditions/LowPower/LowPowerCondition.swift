import LaunchContract
import ResultsSchema
import SystemCalls

/// The `low-power` condition: cpufreq capped for the whole condition (the originals saved first,
/// so that a killed bench's successor can restore them), or a CPU quota on each run's own cgroup;
/// every run's record says what was applied and whether it was read back in force.
package final class LowPowerCondition: LaunchConditionControl {
  package var condition: LaunchCondition { .lowPower }
  /// cpufreq caps every CPU of the machine; a quota caps only the run's own cgroup.
  package var machineUse: String? {
    guard case .success(.cpufreq) = plan else { return nil }
    return "the cpufreq cap"
  }
  /// How this machine carries out `low-power`, or why it cannot (its cells are then not run);
  /// nil when the condition was not asked for.
  package let plan: Result<LowPowerPlan, LowPowerUnavailable>?
  /// cpufreq: the cap applied for the condition, or its failure; nil while none is held. One
  /// benchmark's runners share it: a second `apply` would save the capped values as the
  /// originals. Guarded by its own lock.
  let capHeld = PThreadMutex<Result<CPUFrequencyCap.Applied, CPUCapError>?>(nil)

  /// The control of `low-power` carried out by `plan`.
  package init(plan: Result<LowPowerPlan, LowPowerUnavailable>?) { self.plan = plan }

  /// cpufreq: caps every CPU (once; a failure is each run's reason). Nothing for a quota.
  package func prepare() -> ConditionPreparation {
    guard case .success(.cpufreq(let cap, let fraction)) = plan else { return ConditionPreparation() }
    capHeld.withLock { held in
      guard held == nil else { return }
      do throws(CPUCapError) {
        held = .success(try cap.apply(fraction: fraction))
      } catch {
        held = .failure(error)
      }
    }
    return ConditionPreparation()
  }

  /// A quota: the run's cgroup, made before the launch (a group that cannot be made is the run's
  /// failure). cpufreq: the cap held for the condition, read back after the run.
  package func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool)
    -> (any ConditionRunState)?
  {
    guard case .success(.quota(let controller, let quota)) = plan else { return LowPowerRun(condition: self) }
    do throws(CPUCapError) {
      let name = CgroupCPUController.runGroupName(run: context.runID)
      return LowPowerRun(
        condition: self, cgroup: try RunCgroup.create(in: controller, name: name, quota: quota))
    } catch {
      let reason = "low-power cap not applied: \(error.description)"
      return LowPowerRun(
        condition: self, failure: reason,
        failedRecord: BenchResults.LowPowerRecord(method: plan.methodName, verified: false, reason: reason))
    }
  }

  /// cpufreq: restores what ``prepare()`` changed (once, by whichever caller comes first).
  package func restore() {
    guard case .success(.cpufreq(let cap, _)) = plan else { return }
    let held = capHeld.withLock { held in
      defer { held = nil }
      return held != nil
    }
    if held { cap.restore() }
  }
}

/// One `low-power` run: its cgroup (a quota), or the failure to make one.
package struct LowPowerRun: ConditionRunState {
  /// The condition, whose plan and held cap the run is checked against.
  let condition: LowPowerCondition
  /// A quota: the run's cgroup, removed once the run is verified.
  package var cgroup: RunCgroup?
  /// Why the run cannot go on (its cgroup could not be made).
  package var failure: String?
  /// The record of a run that could not go on.
  var failedRecord: BenchResults.LowPowerRecord?

  init(
    condition: LowPowerCondition, cgroup: RunCgroup? = nil, failure: String? = nil,
    failedRecord: BenchResults.LowPowerRecord? = nil
  ) {
    self.condition = condition
    self.cgroup = cgroup
    self.failure = failure
    self.failedRecord = failedRecord
  }

  /// Writes `low_power`: a cap that did not take effect fails the run with the reason.
  package func verify(_ observed: ConditionRunObservation, into record: inout BenchResults.RunRecord) {
    if let failedRecord {
      record.lowPower = failedRecord
      return
    }
    guard
      let lowPower = condition.record(
        group: cgroup, placement: observed.placement, usage: observed.cpuUsage)
    else { return }
    record.lowPower = lowPower
    if !lowPower.verified, record.ok {
      record.ok = false
      record.error = lowPower.reason
    }
  }
}

extension Optional where Wrapped == Result<LowPowerPlan, LowPowerUnavailable> {
  /// The method's name for results, `none` without a plan.
  package var methodName: String {
    guard case .success(let plan) = self else { return "none" }
    return plan.methodName
  }
}
