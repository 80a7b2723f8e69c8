import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

/// The parts of one baseline check: the comparison of one phase of one cell, and the verdict
/// on a cell or phase that one side does not have.
extension Gate {
  /// Compares one phase of one cell with the baseline's same cell and decides it with
  /// `baselineStatus`: within the threshold passes; slower beyond it fails when p < α and is
  /// otherwise inconclusive, with how many runs would decide when `PowerAdvice` can say. The
  /// report holds the outcome, the power advice and its warning, if any.
  static func compare(
    _ reference: [Double], _ current: [Double], name: String, phase: String,
    counts: (cell: BenchResults.Cell, base: BenchResults.Cell), cells: Int, seed: UInt64,
    options: BaselineOptions
  ) -> GateReport {
    let threshold = options.threshold(for: phase)
    let alphaText = PowerAdvice.formatAlpha(options.alpha)
    let statistic = Gate.statistic
    let r = statistic.compare(
      reference: reference, new: current, threshold: threshold, alpha: options.alpha,
      resamples: options.resamples, seed: seed)
    // Too noisy for the threshold alone to decide: only a slowdown significant at α / cells fails.
    let noisy = aboveNoiseCeiling(options.noiseCeiling, reference: reference, new: current) && !r.ratio.isNaN
    let noisyAlpha = options.noisyAlpha(cells: cells)
    var status = baselineStatus(
      ratio: r.ratio, pValue: r.pValue, threshold: threshold, alpha: noisy ? noisyAlpha : options.alpha)
    if status == .inconclusive && noisy { status = .skipped }
    // The noise and the runs needed come from the finished runs: a failed run's +∞ has no spread.
    let advice = statistic.advice(
      phase: name, reference: reference.filter(\.isFinite), new: current.filter(\.isFinite),
      alpha: options.alpha, threshold: threshold)
    let (cell, base) = counts
    let numbers =
      "\(statistic.locationName) \(NumberFormat.ms(r.newMedian)) ms vs baseline \(NumberFormat.ms(r.referenceMedian)) ms, ratio \(NumberFormat.ratio(r.ratio))"
      + " (\(NumberFormat.change(r.ratio)), 95 % CI \(NumberFormat.ci(r.ci95))), \(NumberFormat.p(r.pValue)), n = \(r.newCount) vs \(r.referenceCount)"
      + " (\(cell.failed) of \(cell.runs) runs failed vs \(base.failed) of \(base.runs))"
    let why: String
    switch status {
    case .fail:
      why =
        "slower beyond the \(NumberFormat.percent(threshold)) threshold at α = "
        + (noisy
          ? "\(PowerAdvice.formatAlpha(noisyAlpha)) (α / \(cells) cells: the cell is above the noise ceiling)"
          : alphaText)
    case .pass: why = "within the \(NumberFormat.percent(threshold)) threshold"
    case .skipped:
      let pcts = [noise(reference), noise(current)].map { $0.isNaN ? "–" : NumberFormat.percent($0) }
      why =
        "slower than the \(NumberFormat.percent(threshold)) threshold, not significant at α / \(cells) cells ="
        + " \(PowerAdvice.formatAlpha(noisyAlpha)); not gated to the threshold: the cell's noise (\(pcts[1]) vs"
        + " baseline \(pcts[0])) is above the \(NumberFormat.percent(options.noiseCeiling ?? 0)) noise ceiling,"
        + " where only a slowdown that significant fails"
    case .inconclusive:
      why =
        r.ratio.isNaN
        ? "inconclusive: no ratio (no run reached \(phase) on either side), so nothing shows it within the threshold"
        : "slower than the \(NumberFormat.percent(threshold)) threshold but not significant at α = \(alphaText);"
          + " inconclusive: more runs would decide" + runsToDecide(advice)
    }
    var report = GateReport(advice: [advice])
    report.outcomes.append(
      GateOutcome(
        kind: .baseline, name: name, status: status, message: "\(numbers); \(why)", phase: phase,
        referenceMedianMs: r.referenceMedian, medianMs: r.newMedian, ratio: r.ratio, ci95: r.ci95.array,
        pValue: r.pValue, limit: 1 + threshold))
    if let warning = advice.warning { report.warnings.append(warning) }
    return report
  }

  /// `" (at least 7 runs per side …)"` from the power advice, or nothing when it cannot say.
  static func runsToDecide(_ advice: PowerAdvice) -> String {
    if advice.cannotReachAlpha {
      return " (these run counts cannot reach p < \(PowerAdvice.formatAlpha(advice.alpha));"
        + " at least \(advice.runsNeededForAlpha) runs per side can)"
    }
    if let needed = advice.runsNeededForThreshold, needed > Swift.min(advice.baselineRuns, advice.runs) {
      return " (about \(needed) runs per side would catch the threshold with 80 % power)"
    }
    return ""
  }

  /// The outcome of a check one side cannot supply (`what`: "the baseline has no deferred/loaded
  /// cell"): it fails — a gate that compared nothing has not shown the build healthy — unless
  /// the cell is optional (`BaselineOptions.optionalCells`), when it is skipped with the reason.
  static func missing(
    name: String, phase: String, key: CellKey, what: String, _ options: BaselineOptions
  ) -> GateOutcome {
    guard options.optionalCells.contains(key.name) else {
      return GateOutcome(
        kind: .baseline, name: name, status: .fail,
        message: "\(what): nothing to compare (record the baseline with this cell, or mark it optional:"
          + " --optional-cells \(key.name) or the gates file's baseline.optional_cells)",
        phase: phase)
    }
    return GateOutcome(
      kind: .baseline, name: name, status: .skipped, message: "skipped: \(what) (the cell is optional)",
      phase: phase)
  }
}
