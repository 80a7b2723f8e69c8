import ResultsSchema

extension Gate {
  /// The check that `results` (read from `file`) hold a whole benchmark: a file with
  /// `"complete": false` (a snapshot of a bench still running, or rebuilt from the journal of
  /// one that died) or `settings.interrupted` (Ctrl-C or a fault stopped the runs) has not
  /// measured every run it planned, so a gate on it has compared less than it says. Such a
  /// file fails the gate with a `complete FILE` check naming what is missing, unless
  /// `allowIncomplete` (`bench gate --allow-incomplete`), when the report carries a warning
  /// instead. An empty report for a whole benchmark.
  public static func checkComplete(_ results: BenchResults, file: String, allowIncomplete: Bool) -> GateReport
  {
    let interrupted = results.settings.interrupted
    guard interrupted || results.complete == false else { return GateReport() }
    let settings = results.settings
    let cellsPlanned = settings.configs.count * settings.conditions.count - (settings.notRun?.count ?? 0)
    let planned = settings.runs * Swift.max(cellsPlanned, 0)
    let counted = results.cells.reduce(0) { $0 + $1.runs }
    let why =
      interrupted
      ? "the run was interrupted after \(counted) of \(planned) runs"
      : "\"complete\": false: a snapshot of a bench still running, or rebuilt from the journal of one that"
        + " died, with \(counted) of \(planned) runs"
    var report = GateReport()
    if allowIncomplete {
      report.warnings.append("\(file) is incomplete (\(why)); gated anyway (--allow-incomplete)")
    } else {
      report.outcomes.append(
        GateOutcome(
          kind: .input, name: "complete \(file)", status: .fail,
          message: "\(file) is incomplete: \(why) (gate a whole run, or pass --allow-incomplete)",
          phase: "complete"))
    }
    return report
  }
}
