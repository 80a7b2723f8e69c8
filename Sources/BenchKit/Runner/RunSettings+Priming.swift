import LaunchContract

extension RunSettings {
  /// Whether the cell of `configuration` under `condition` starts with a priming run: one
  /// uncounted run of the same app right before its first counted run, so that a `warm`,
  /// `loaded`, `low-power` or `hot` run follows a run of the app, as those conditions mean (the device closed moments
  /// ago, the app's files in the page cache). Only needed when no run precedes it: `--warmup 0`,
  /// and no earlier condition of this benchmark ran `configuration`. `cold` needs none (it
  /// evicts), nor `relock` (its app's launch precedes the first run).
  package func primes(_ configuration: BenchConfiguration, in condition: LaunchCondition) -> Bool {
    guard warmup == 0, condition != .cold, condition != .relock,
      let index = conditions.firstIndex(of: condition)
    else { return false }
    return !conditions[..<index].contains { notRunReason(for: configuration, in: $0) == nil }
  }

  /// The cells that start with a priming run (``primes(_:in:)``), as `condition/config`, in the
  /// order they run.
  package var primedCells: [String] {
    var cells: [String] = []
    for (index, condition) in conditions.enumerated() where conditions.firstIndex(of: condition) == index {
      for configuration in benchConfigurations
      where notRunReason(for: configuration, in: condition) == nil && primes(configuration, in: condition) {
        cells.append("\(condition.rawValue)/\(configuration.name)")
      }
    }
    return cells
  }
}
