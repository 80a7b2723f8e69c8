import ResultsSchema
import Statistics

extension BenchResults.Cell {
  /// The type-7 percentiles `ps` (0…1) of `phase` over the cell's ranked samples
  /// (`rankedSamples(for:)`: every counted run, a failed run after every finished one), ms: +∞
  /// for a percentile that falls among the failed runs, which the tables show as `≥ timeout`.
  /// Nil when the cell has no sample of `phase`. `results.json`'s `PhaseSummary` stays over the
  /// finished runs; the tables show these.
  public func rankedPercentiles(for phase: String, _ ps: [Double]) -> [Double]? {
    let sorted = rankedSamples(for: phase).sorted()
    guard !sorted.isEmpty else { return nil }
    return ps.map { Statistics.percentile(sorted: sorted, $0) }
  }

  /// Whether a table shows `phase` for this cell: measured in a finished run, or the cell's every
  /// run failed (its percentiles are all `≥ timeout`).
  package var showsRanked: Bool { failed > 0 && failed == runs }
}
