import ResultsSchema
import RunAnalysis
import Statistics

extension Gate {
  /// The failure-rate check of one cell against the baseline's same cell. Two rules, either of
  /// which fails it by itself:
  /// 1. **allowed rise**: the results' share of failed runs is more than
  ///    `options.maxFailureRateRise` (default 0.05: 5 percentage points) above the baseline's.
  ///    At CI's run counts a significance test cannot see a large rise (6 of 20 against 0 of 20 has
  ///    Fisher's p = 0.0101, not below α = 0.01; 5 of 10 against 0 of 10 has 0.0163), so this rule
  ///    is what catches a change that makes launches time out.
  /// 2. **significant rise**: the share is higher **and** Fisher's exact test (one-sided) finds
  ///    the rise significant at `options.alpha`, which catches a smaller rise over many runs.
  ///
  /// The message gives both rates, the rise in points, Fisher's p, and which rule failed. Failed
  /// runs never vanish: they also rank after every finished run in the phase checks.
  public static func checkFailureRate(
    _ cell: BenchResults.Cell, against base: BenchResults.Cell, options: BaselineOptions
  ) -> GateOutcome {
    let key = CellKey(cell)
    let p = FisherExact.greaterPValue(
      failed: cell.failed, runs: cell.runs, baselineFailed: base.failed, baselineRuns: base.runs)
    let rate = cell.runs > 0 ? Double(cell.failed) / Double(cell.runs) : 0
    let baseRate = base.runs > 0 ? Double(base.failed) / Double(base.runs) : 0
    let rise = rate - baseRate
    // A rise of exactly the allowed one passes, whatever the rounding of the two shares.
    let beyondAllowed = rise > options.maxFailureRateRise + 1e-12
    let significant = rise > 0 && p < options.alpha
    let alphaText = PowerAdvice.formatAlpha(options.alpha)
    let allowed = "the allowed rise of \(points(options.maxFailureRateRise)) points"
    let why: String
    if rise <= 0 {
      why = "no rise in the failure rate"
    } else if beyondAllowed {
      why =
        "a rise of \(points(rise)) points, above \(allowed) (baseline.failure_rate.max_rise_pct);"
        + " on its own the rise is \(significant ? "" : "not ")significant at α = \(alphaText)"
    } else {
      why =
        "a rise of \(points(rise)) points, within \(allowed)"
        + (significant ? " but significant at α = \(alphaText)" : " and not significant at α = \(alphaText)")
    }
    return GateOutcome(
      kind: .baseline, name: "\(failureRatePhase) \(key.name)",
      status: beyondAllowed || significant ? .fail : .pass,
      message:
        "\(cell.failed) of \(cell.runs) runs failed vs \(base.failed) of \(base.runs) in the baseline"
        + " (\(NumberFormat.rate(rate)) vs \(NumberFormat.rate(baseRate)); one-sided Fisher exact \(NumberFormat.p(p))); \(why)",
      phase: failureRatePhase, pValue: p)
  }

  /// Why a relative gate's ratio is none, or nil when it is one. +∞ because the numerator's
  /// median run did not finish (failed runs rank last) is a ratio like any other, judged against
  /// the bounds; NaN (0 ms over 0 ms, or both median runs failed) and +∞ over a 0 ms median are
  /// none, and fail the gate.
  static func noRatioReason(_ r: SampleComparison) -> String? {
    if r.ratio.isNaN && r.newMedian.isInfinite {
      return "no ratio: neither median run reached the phase within the run timeout"
    }
    guard r.ratio.isNaN || (r.ratio.isInfinite && r.newMedian.isFinite) else { return nil }
    return "no finite ratio (a 0 ms median): the bound cannot be shown to hold"
  }

  /// A share of runs as percentage points: `30` for 0.3, `2.5` for 0.025.
  static func points(_ fraction: Double) -> String {
    let v = (fraction * 1000).rounded() / 10
    return v.rounded() == v ? String(Int(v)) : String(v)
  }

  /// The name of the failure-rate check in gate reports (`failure_rate deferred/cold`).
  public static let failureRatePhase = "failure_rate"
}
