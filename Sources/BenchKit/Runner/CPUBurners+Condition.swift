import HostConditions
import LaunchContract

extension CPUBurners {
  /// The burners `condition` runs under: started for `loaded` as `settings` planned them (the
  /// plan made when the command was parsed, or one made now from `settings.load`), none for the
  /// others. When they cannot be started, that is noted on `progress` and the condition runs
  /// without them.
  static func started(for condition: LaunchCondition, settings: RunSettings, progress: ProgressReporter)
    -> CPUBurners?
  {
    guard condition == .loaded else { return nil }
    do {
      return try CPUBurners(plan: settings.burnerPlan ?? .current(kind: settings.load))
    } catch {
      progress.note("bench: cannot start CPU burners: \(error.message)")
      return nil
    }
  }
}
