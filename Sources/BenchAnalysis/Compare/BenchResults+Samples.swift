import LaunchContract
import ResultsSchema
extension BenchResults.Cell {
  /// The samples of `phase` over the ok runs, ms, in run order: the summary's samples, or (when
  /// the summary is missing) the ok records' values.
  public func samples(for phase: String) -> [Double] {
    if let summary = phases[phase] { return summary.samples.filter(\.isFinite) }
    return records.filter(\.ok).compactMap { $0.phases[phase] }.filter(\.isFinite)
  }

  /// The phases this cell has samples for, in timeline order (known phases first).
  public var phaseNames: [String] {
    let names = Set(phases.keys).union(records.flatMap { $0.phases.keys })
    let known = PhaseName.all.filter { names.contains($0) }
    return known + names.subtracting(known).sorted()
  }
}

extension BenchResults {
  /// The cells in people's order (conditions cold, warm, relock, loaded; configs deferred, eager, …).
  public var orderedCells: [Cell] { cells.sorted { CellKey($0) < CellKey($1) } }

  /// The cell with `key`, if any.
  public func cell(_ key: CellKey) -> Cell? { cells.first { CellKey($0) == key } }
}
