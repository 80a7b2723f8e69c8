import LaunchContract

extension CPUBurners {
  /// The burners `condition` runs under: started for `loaded`, none for the others. When they
  /// cannot be started, that is noted on `progress` and the condition runs without them.
  static func started(for condition: LaunchCondition, progress: ProgressReporter) -> CPUBurners? {
    guard condition == .loaded else { return nil }
    do {
      return try CPUBurners()
    } catch {
      progress.note("bench: cannot start CPU burners: \(error.message)")
      return nil
    }
  }
}
