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

extension BenchResults.Cell {
  /// The samples of `phase` over every counted run, ms, in run order, **failed runs included**:
  /// a failed run counts as `+∞`, after every finished run, whatever its reason. What the rank
  /// tests, the gates and the headline's distribution read (issue 25: a change that makes the
  /// slowest launches time out must not look faster). A failed run that did record `phase` ranks
  /// slowest too (issue 37): a forged light board, an uncapped low-power run or an unsoaked hot
  /// one measured something other than the cell's launch, and its time, often faster, must not
  /// count as the cell's. Empty for a phase that does not apply to the cell (`notApplicable`).
  ///
  /// Results without records (summaries only) give the summary's samples and one `+∞` per failed run.
  public func rankedSamples(for phase: String) -> [Double] {
    if notApplicable?[phase] != nil { return [] }
    guard !records.isEmpty else {
      let finished = samples(for: phase)
      return finished.isEmpty && failed == 0 ? [] : finished + Array(repeating: .infinity, count: failed)
    }
    let values = records.compactMap { record -> Double? in
      guard record.ok else { return .infinity }
      return record.phases[phase].flatMap { $0.isFinite ? $0 : nil }
    }
    // A phase no finished run measured is not this cell's, unless every run failed.
    return values.contains(where: \.isFinite) || values.count == records.count ? values : []
  }
}
