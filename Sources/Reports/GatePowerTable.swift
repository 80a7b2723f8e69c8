import Foundation
import Gates
import RunAnalysis
import Statistics

/// `bench power` output: the gate's false alarms and power per cell, and the goals; with `--size`,
/// the run counts tried and the one chosen for CI.
public enum GatePowerTable {
  /// The family-wise false-alarm goal: a healthy change fails the gate over all its cells in at
  /// most 1 % of comparisons (95 % upper bound).
  public static let falseAlarmGoal = 0.01
  /// The regression the power goal is about, as a fraction.
  public static let goalShift = 0.10
  /// The share of comparisons that must catch it, in every cell.
  public static let powerGoal = 0.95

  /// A table for people.
  /// With `baseline` (`bench power --against`), each comparison's baseline side came from that
  /// file, recorded apart, and the A/A comparisons hold the drift between the two sessions.
  public static func text(_ r: GatePower.Report, source: String, baseline: String? = nil) -> String {
    let pct = NumberFormat.rate
    var s =
      "gate power of \(source)\(baseline.map { " against the baseline \($0)" } ?? ""): \(r.phase),"
      + " \(r.runsPerSide) runs per side, \(r.comparisonsPerCell) comparisons"
      + " per cell, α = \(PowerAdvice.formatAlpha(r.alpha)), threshold \(NumberFormat.percent(r.threshold)),"
      + " inconclusive \(r.inconclusive.rawValue)"
      + (r.noiseCeiling.map { " (pass where either side's noise is above \(NumberFormat.percent($0)))" } ?? "")
      + "\n"
    if let from = r.baselineMeasuredOn {
      s +=
        "each comparison: \(r.runsPerSide) runs drawn from the baseline's cell (\(from)) against"
        + " \(r.runsPerSide) from the results' (\(r.measuredOn)); the A/A holds the drift between the two sessions\n"
    }
    s += "\n"
    let header = [
      "cell", "runs", "failed", "median ms", "noise", "A/A false alarms", "caught at \(pct(goalShift))",
      "smallest shift caught ≥ \(pct(powerGoal))",
    ]
    let rows =
      [header]
      + r.cells.map { c in
        [
          c.cell, String(c.runs), String(c.failedRuns), NumberFormat.ms(c.medianMs), pct(c.noiseFraction),
          "\(c.aaFalseAlarms)/\(c.aaComparisons)",
          c.shift(goalShift).map { "\($0.caught)/\($0.comparisons)" } ?? "–",
          pct(c.smallestShiftCaughtAt95),
        ]
      }
    s += aligned(rows)
    for skipped in r.skipped { s += "skipped \(skipped)\n" }
    let curve = (r.cells.first?.shifts ?? []).map { "\(pct($0.shift)) \(pct(r.caughtRate(at: $0.shift)))" }
    if !curve.isEmpty { s += "\ncaught, all cells: " + curve.joined(separator: ", ") + "\n" }
    let bound = r.familyFalseAlarmUpperBound
    s +=
      "\nfalse alarms, family-wise (a gate run over all \(r.cells.count) cells fails when any does):"
      + " \(r.familyFalseAlarms) of \(r.familyComparisons) (\(pct(r.familyFalseAlarmRate)), 95 % upper bound"
      + " \(pct(bound))); goal ≤ \(pct(falseAlarmGoal)): \(bound <= falseAlarmGoal ? "met" : "NOT met")\n"
    s +=
      "false alarms, per cell: \(r.aaFalseAlarms) of \(r.aaComparisons) A/A comparisons (\(pct(r.falseAlarmRate)))\n"
    let worst = r.worstCellCaughtRate(at: goalShift)
    s +=
      "a \(pct(goalShift)) regression: caught in \(pct(r.caughtRate(at: goalShift))) of comparisons over all"
    s +=
      " cells, \(pct(worst)) in the worst; goal ≥ \(pct(powerGoal)) in every cell at \(r.runsPerSide) runs per"
    s += " side: \((worst ?? 0) >= powerGoal ? "met" : "NOT met")\n"
    s +=
      "smallest shift caught in ≥ \(pct(powerGoal)) of comparisons in every cell: \(pct(r.smallestShiftCaught()))\n"
    if let sizing = r.sizing { s += "\n" + sizingText(sizing) }
    return s
  }

  /// The sizing table: per run count, the worst cell's share caught and the family-wise false
  /// alarms, each with its 95 % bound, and whether the goals are met; then the counts chosen.
  public static func sizingText(_ z: GateSizing) -> String {
    let pct = NumberFormat.rate
    var s =
      "sizing for a \(pct(z.goals.shift)) uniform slowdown over \(z.cells.joined(separator: ", ")):"
      + " goals ≥ \(pct(z.goals.power)) caught in every cell, ≤ \(pct(z.goals.falseAlarms)) false alarms"
      + " family-wise (both at 95 % confidence)\n\n"
    let header = ["runs per side", "caught, worst cell", "≥ (95 %)", "false alarms", "≤ (95 %)", "goals"]
    let rows =
      [header]
      + z.rows.map { row in
        [
          String(row.runsPerSide), "\(row.caught.min() ?? 0)/\(row.comparisons)",
          pct(row.worstCaughtLowerBound),
          "\(row.familyFalseAlarms)/\(row.comparisons)", pct(row.familyFalseAlarmUpperBound),
          row.meets(z.goals) ? "met" : "not met",
        ]
      }
    s += aligned(rows)
    if let smallest = z.smallestRunsPerSide, let chosen = z.chosenRunsPerSide {
      s += "\nsmallest run count meeting the goals (and every larger one tried): \(smallest) per side\n"
      s +=
        "chosen for CI (× \(String(format: "%g", z.margin)), at most \(z.rows.last?.runsPerSide ?? 0)): \(chosen) per side\n"
    } else {
      s +=
        "\nno run count up to \(z.rows.last?.runsPerSide ?? 0) per side met the goals: the runs are too noisy"
        + " for the rule (measure on a quiet machine), or too few (run bench with more)\n"
    }
    return s
  }

  /// Rows padded into columns, a rule under the first.
  static func aligned(_ rows: [[String]]) -> String {
    guard let header = rows.first else { return "" }
    let widths = header.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
    var s = ""
    for (n, row) in rows.enumerated() {
      s +=
        row.enumerated().map { i, v in v + String(repeating: " ", count: widths[i] - v.count) }
        .joined(separator: "  ").trailingSpacesRemoved + "\n"
      if n == 0 { s += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
    }
    return s
  }
}
