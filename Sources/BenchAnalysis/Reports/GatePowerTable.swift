import Foundation

/// `bench power` output: the gate's false alarms and power per cell, and the goals.
public enum GatePowerTable {
  /// The goals `Benchmarks/gate-power` checks: false alarms ≤ 1 % over ≥ 200 A/A comparisons,
  /// and a 10 % regression caught in ≥ 95 % of comparisons at 20 runs per side.
  public static let falseAlarmGoal = 0.01
  /// The least number of A/A comparisons the false-alarm figure needs.
  public static let comparisonsGoal = 200
  /// The regression the power goal is about, as a fraction.
  public static let goalShift = 0.10
  /// The share of comparisons that must catch it.
  public static let powerGoal = 0.95

  /// A table for people.
  public static func text(_ r: GatePower.Report, source: String) -> String {
    let pct = Fmt.rate
    var s =
      "gate power of \(source): \(r.phase), \(r.runsPerSide) runs per side, \(r.comparisonsPerCell) comparisons"
      + " per cell, α = \(PowerAdvice.formatAlpha(r.alpha)), threshold \(Fmt.percent(r.threshold))\n\n"
    let header = [
      "cell", "runs", "median ms", "noise", "A/A false alarms", "caught at \(pct(goalShift))",
      "smallest shift caught ≥ \(pct(powerGoal))",
    ]
    var rows = [header]
    for c in r.cells {
      let at = c.shifts.first { abs($0.shift - goalShift) < 1e-9 }
      rows.append([
        c.cell, String(c.runs), Fmt.ms(c.medianMs), pct(c.noiseFraction),
        "\(c.aaFalseAlarms)/\(c.aaComparisons)", at.map { "\($0.caught)/\($0.comparisons)" } ?? "–",
        pct(c.smallestShiftCaughtAt95),
      ])
    }
    let widths = header.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
    for (n, row) in rows.enumerated() {
      s +=
        row.enumerated().map { i, v in v + String(repeating: " ", count: widths[i] - v.count) }
        .joined(separator: "  ").trailingSpacesRemoved + "\n"
      if n == 0 { s += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n" }
    }
    for skipped in r.skipped { s += "skipped \(skipped)\n" }
    let curve = (r.cells.first?.shifts ?? []).map { "\(pct($0.shift)) \(pct(r.caughtRate(at: $0.shift)))" }
    if !curve.isEmpty { s += "\ncaught, all cells: " + curve.joined(separator: ", ") + "\n" }
    let falseAlarmsMet = r.aaComparisons >= comparisonsGoal && r.falseAlarmRate <= falseAlarmGoal
    let caught = r.caughtRate(at: goalShift)
    let powerMet =
      r.runsPerSide == 20 && (caught ?? 0) >= powerGoal
      && r.cells.allSatisfy { c in
        c.shifts.first { abs($0.shift - goalShift) < 1e-9 }.map { $0.rate >= powerGoal } ?? false
      }
    s +=
      "\nfalse alarms: \(r.aaFalseAlarms) of \(r.aaComparisons) A/A comparisons (\(pct(r.falseAlarmRate)));"
    s += " goal ≤ \(pct(falseAlarmGoal)) over ≥ \(comparisonsGoal): \(falseAlarmsMet ? "met" : "NOT met")\n"
    s += "a \(pct(goalShift)) regression: caught in \(pct(caught)) of comparisons over all cells;"
    s += " goal ≥ \(pct(powerGoal)) in every cell at 20 runs per side: \(powerMet ? "met" : "NOT met")\n"
    s +=
      "smallest shift caught in ≥ \(pct(powerGoal)) of comparisons in every cell: \(pct(r.smallestShiftCaught()))\n"
    return s
  }
}
