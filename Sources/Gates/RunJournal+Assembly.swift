import ResultsSchema
import RunAnalysis
import Statistics

extension RunJournal {
  /// Reads the journal at `path` and rebuilds its results: each cell's run counts, per-phase
  /// distributions and the within-run comparisons (``assemble(base:cells:realtime:)``).
  /// - Throws: ``ResultsFileError`` naming the file when it cannot be read or does not begin with
  ///   a journal header.
  public static func read(path: String) throws(ResultsFileError) -> Contents {
    var contents = try readRecords(path: path)
    contents.results = assemble(
      base: contents.results, cells: contents.results.cells, realtime: contents.realtime)
    return contents
  }

  /// The results of finished runs: `base` (tool, host, settings) with `cells`, each cell's run
  /// counts and per-phase distributions over its ok runs, and the within-run comparisons. What
  /// the session writes at the end and what a journal is rebuilt into.
  public static func assemble(base: BenchResults, cells: [BenchResults.Cell], realtime: Bool) -> BenchResults
  {
    var results = base
    results.cells = cells.map { cell in
      var cell = cell
      cell.runs = cell.records.count
      cell.failed = cell.records.filter { !$0.ok }.count
      cell.phases = summaries(cell.records)
      cell.detection = BenchResults.Cell.detectionCounts(cell.records)
      return cell
    }
    results.host.realtimeCompositor = results.host.realtimeCompositor || realtime
    results.comparisons = Comparator.withinRunComparisons(results.cells)
    return results
  }

  /// Per-phase distributions over a cell's ok runs.
  static func summaries(_ records: [BenchResults.RunRecord]) -> [String: BenchResults.PhaseSummary] {
    var samples: [String: [Double]] = [:]
    for r in records where r.ok {
      for (phase, ms) in r.phases { samples[phase, default: []].append(ms) }
    }
    return samples.mapValues { Statistics.summarize($0) }
  }
}
