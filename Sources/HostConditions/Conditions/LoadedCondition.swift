import LaunchContract
import Subprocess
import SystemCalls

/// The `loaded` condition: one burner per CPU of its plan (``CPUBurners``), started before the
/// condition's first run and stopped after its last. Burners that cannot start are noted and the
/// condition runs without them (its cells record 0 burners).
package final class LoadedCondition: LaunchConditionControl {
  package var condition: LaunchCondition { .loaded }
  /// Burners on every CPU bench may use load the whole machine.
  package var machineUse: String? { "full-load burners" }
  /// The plan made when the command was parsed; nil: one made at ``prepare()`` from `load`.
  let plan: BurnerPlan?
  /// What the burners do when there is no plan.
  let load: LoadKind
  /// The running burners and whether they were started; guarded by its own lock.
  private let state = PThreadMutex<(started: Bool, burners: CPUBurners?)>((false, nil))

  /// The control of `loaded` with `plan`, or a plan made from `load` when it starts.
  package init(plan: BurnerPlan?, load: LoadKind) {
    self.plan = plan
    self.load = load
  }

  /// Starts the burners (once).
  package func prepare() -> ConditionPreparation {
    state.withLock { (state: inout (started: Bool, burners: CPUBurners?)) -> ConditionPreparation in
      if state.started {
        return ConditionPreparation(burners: state.burners?.count, untraced: state.burners?.processIDs ?? [])
      }
      state.started = true
      do throws(RunnerError) {
        let burners = try CPUBurners(plan: plan ?? .current(kind: load))
        state.burners = burners
        return ConditionPreparation(burners: burners.count, untraced: burners.processIDs)
      } catch {
        return ConditionPreparation(note: "bench: cannot start CPU burners: \(error.message)")
      }
    }
  }

  /// Nothing per run: the burners run throughout.
  package func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool)
    -> (any ConditionRunState)?
  { UnpreparedRun() }

  /// Stops the burners.
  package func restore() {
    let burners = state.withLock { (state: inout (started: Bool, burners: CPUBurners?)) -> CPUBurners? in
      defer { state = (false, nil) }
      return state.burners
    }
    burners?.stop()
  }
}
