import Foundation
import Gates
import RunAnalysis
import Statistics

/// `bench power --sequential` output: the design, what it costs (expected and most runs a side)
/// and catches in each cell at each planted shift, and with `--size` the designs tried.
package enum SequentialPowerTable {
  /// A table for people.
  package static func text(_ s: SequentialSizing, source: String, phase: String) -> String {
    let pct = NumberFormat.rate
    let spending = s.spending == "pocock" ? "Pocock" : "O'Brien–Fleming"
    let r = s.report
    var text = "sequential power of \(source): \(phase), a look every \(r.pairsPerLook) pairs,"
    text += " at most \(r.looks) looks (\(r.maximumRunsPerSide) runs a side), \(spending)-type spending,"
    let split =
      s.cells > 1 ? " over \(s.cells) cells: \(String(format: "%g", s.alpha / Double(s.cells))) a cell" : ""
    text += " α = \(PowerAdvice.formatAlpha(s.alpha))\(split), β = \(PowerAdvice.formatAlpha(s.beta)),"
    text += " threshold \(NumberFormat.percent(s.threshold)); each cell's runs resampled with replacement\n"
    if let rows = s.rows {
      text += "\nsized for a \(pct(s.goals.shift)) slowdown (≥ \(pct(s.goals.power)) SLOWER in every cell, ≤"
      text += " \(pct(s.goals.falseAlarms)) false alarms family-wise, both at 95 % confidence):\n"
      let header = [
        "looks", "most runs a side", "A/A mean runs", "false alarms", "caught", "mean runs at shift", "meets",
      ]
      let lines =
        [header]
        + rows.map { row in
          let aa = row.cells.compactMap { $0.shifts.first { $0.shift == 0 }?.meanRuns }.max() ?? .nan
          let at =
            row.cells.compactMap { $0.shifts.first { $0.shift == s.goals.shift }?.meanRuns }.max() ?? .nan
          return [
            String(row.looks), String(row.maximumRunsPerSide), NumberFormat.fixed(aa, decimals: 1),
            pct(row.familyFalseAlarmRate), pct(row.worstCaughtRate), NumberFormat.fixed(at, decimals: 1),
            row.meets(s.goals) ? "yes" : "no",
          ]
        }
      text += GatePowerTable.aligned(lines)
      text +=
        s.chosenMaximumRunsPerSide.map {
          "smallest design meeting the goals: at most \($0) runs a side (reported below)\n"
        }
        ?? "no design tried met the goals: the one asked for is reported below\n"
    }
    for cell in r.cells {
      text += "\n\(cell.cell) (\(cell.recordedRuns) runs recorded):\n"
      let header = [
        "shift", "comparisons", "SLOWER", "FASTER", "SAME", "UNKNOWN", "step fails", "mean runs a side",
        "worst",
      ]
      let lines =
        [header]
        + cell.shifts.map { f in
          [
            pct(f.shift), String(f.comparisons), String(f.slower), String(f.faster), String(f.same),
            String(f.unknown), String(f.stepFailures), NumberFormat.fixed(f.meanRuns, decimals: 1),
            String(f.worstRuns),
          ]
        }
      text += GatePowerTable.aligned(lines)
    }
    let aa = r.cells.compactMap { $0.shifts.first { $0.shift == 0 }?.meanRuns }.max() ?? .nan
    let at = r.cells.compactMap { $0.shifts.first { $0.shift == s.goals.shift }?.meanRuns }.max() ?? .nan
    let aaText = NumberFormat.fixed(aa, decimals: 1)
    let atText = NumberFormat.fixed(at, decimals: 1)
    let shiftText = pct(s.goals.shift)
    text += "\nexpected runs a side (the costliest cell): \(aaText) when nothing changed,"
    text += " \(atText) at +\(shiftText); at most \(r.maximumRunsPerSide)."
    text += " False alarms family-wise \(pct(r.familyFalseAlarmRate)), \(shiftText) caught in"
    text += " \(pct(r.worstCaughtRate)) (the worst cell)\n"
    text += "CI's step (scripts/ab-gate: SLOWER, or UNKNOWN beyond the threshold, fails a cell): a healthy"
    text +=
      " commit fails it in \(pct(r.familyStepFailureRate)) (95 % bound \(pct(r.familyStepFailureUpperBound)),"
    text += " any cell); \(shiftText) fails it in \(pct(r.worstStepCaughtRate)) (95 % bound"
    text += " \(pct(r.worstStepCaughtLowerBound)), the worst cell)\n"
    return text
  }
}
