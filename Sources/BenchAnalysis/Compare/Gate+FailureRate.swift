import ResultsSchema

extension Gate {
  /// The failure-rate check of one cell against the baseline's same cell: it fails when the
  /// results' share of failed runs is higher **and** Fisher's exact test (one-sided) finds the
  /// rise significant at `alpha`. Failed runs never vanish: a change that makes 40 % of launches
  /// time out fails here even when the remaining runs are as fast as before.
  public static func checkFailureRate(
    _ cell: BenchResults.Cell, against base: BenchResults.Cell, alpha: Double
  ) -> GateOutcome {
    let key = CellKey(cell)
    let p = FisherExact.greaterPValue(
      failed: cell.failed, runs: cell.runs, baselineFailed: base.failed, baselineRuns: base.runs)
    let rate = cell.runs > 0 ? Double(cell.failed) / Double(cell.runs) : 0
    let baseRate = base.runs > 0 ? Double(base.failed) / Double(base.runs) : 0
    let rose = rate > baseRate && p < alpha
    let alphaText = PowerAdvice.formatAlpha(alpha)
    let why =
      rose
      ? "a significant rise in the failure rate at α = \(alphaText)"
      : (rate > baseRate ? "a rise, not significant at α = \(alphaText)" : "no rise in the failure rate")
    return GateOutcome(
      kind: "baseline", name: "\(failureRatePhase) \(key.name)", status: rose ? .fail : .pass,
      message:
        "\(cell.failed) of \(cell.runs) runs failed vs \(base.failed) of \(base.runs) in the baseline"
        + " (one-sided Fisher exact \(Fmt.p(p))); \(why)",
      phase: failureRatePhase, pValue: p)
  }

  /// The name of the failure-rate check in gate reports (`failure_rate deferred/cold`).
  public static let failureRatePhase = "failure_rate"
}
