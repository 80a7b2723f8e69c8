import Foundation
import Gates
import RunAnalysis
import Statistics

/// `bench power --relative` output: each relative gate's recorded ratio and bound, how often a
/// healthy build fails it at CI's runs per cell, and how often it fails as the ratio moves toward
/// the bound.
package enum RelativePowerTable {
  /// A table for people.
  package static func text(_ r: RelativeGatePower.Report, source: String) -> String {
    let pct = NumberFormat.rate
    var text = "relative gates on \(source): \(r.runsPerCell) runs drawn from each cell, \(r.comparisons)"
    text += " comparisons a shift, an inconclusive decision counted as \(r.inconclusive.rawValue)ing;"
    text += " a shift moves the ratio toward its bound (the protected configuration that much slower)\n"
    for g in r.gates {
      text += "\n\(g.gate) (\(g.bound); recorded ratio \(NumberFormat.ratio(g.recordedRatio)),"
      text += " \(g.recordedRuns[0]) / \(g.recordedRuns[1]) runs):\n"
      let lines =
        [["shift", "comparisons", "gate fails", "rate", "95 % bound"]]
        + g.shifts.map { f in
          let bound =
            f.shift == 0
            ? BinomialBounds.upper(events: f.failures, trials: f.comparisons)
            : BinomialBounds.lower(events: f.failures, trials: f.comparisons)
          return [
            f.shift == 0 ? "0 (A/A)" : "+" + pct(f.shift), String(f.comparisons), String(f.failures),
            pct(Double(f.failures) / Double(max(1, f.comparisons))),
            (f.shift == 0 ? "≤ " : "≥ ") + pct(bound),
          ]
        }
      text += GatePowerTable.aligned(lines)
      text +=
        g.smallestShiftCaught.map { "caught in ≥ 95 % (lower bound) from +\(pct($0))\n" }
        ?? "no shift measured is caught in ≥ 95 %\n"
    }
    for s in r.skipped { text += "\nnot measured: \(s)\n" }
    if !r.gates.isEmpty {
      text += "\nfamily-wise (every gate at once, as CI gates them): a healthy build fails in"
      text +=
        " \(r.familyFalseAlarms) of \(r.comparisons) (95 % bound \(pct(r.familyFalseAlarmUpperBound)))\n"
    }
    return text
  }
}
