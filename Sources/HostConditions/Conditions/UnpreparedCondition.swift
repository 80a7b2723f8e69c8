import LaunchContract

/// A condition that changes nothing on the machine: `warm` (the app's files in the page cache,
/// the device warm from the run before) and `relock` (the app already running). What they need
/// comes from the order of the runs and the runner, not from the machine.
package final class UnpreparedCondition: LaunchConditionControl {
  package let condition: LaunchCondition

  /// The control of `condition`.
  package init(_ condition: LaunchCondition) { self.condition = condition }

  /// Nothing to prepare.
  package func prepare() -> ConditionPreparation { ConditionPreparation() }

  /// Nothing per run.
  package func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool)
    -> (any ConditionRunState)?
  { UnpreparedRun() }

  /// Nothing to restore.
  package func restore() {}
}
