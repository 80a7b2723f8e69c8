import Foundation
import BenchKit
import Gates
import LaunchContract
import ResultsSchema
import RunAnalysis
import Statistics
import SystemCalls

extension ABJob {
  /// The looks of a sequential comparison (``design``), each cell decided on its counted runs
  /// of ``decidedPhase`` (a failed run `+∞`, ranked slowest: the failure rate is part of the
  /// same decision) and its decision appended to `log`; nil with `--fixed`.
  func looks(into log: PThreadMutex<[BenchResults.SequentialAB.Cell]>) -> ABLooks? {
    guard let design else { return nil }
    return ABLooks(pairsPerLook: design.pairsPerLook) { condition, config, look, last, a, b in
      let reference = Self.rankedSamples(a, phase: decidedPhase)
      let new = Self.rankedSamples(b, phase: decidedPhase)
      let verdict: SequentialVerdict? =
        reference.isEmpty || new.isEmpty
        ? nil : design.decide(look: last ? design.looks : look, reference: reference, new: new)
      guard let verdict = verdict ?? (last ? .unknown : nil) else { return false }
      let statistic = Gate.statistic
      let cell = BenchResults.SequentialAB.Cell(
        cell: "\(config.rawValue)/\(condition.rawValue)", verdict: verdict.rawValue, look: look,
        runsPerSide: min(reference.count, new.count),
        ratio: statistic.location(new) / statistic.location(reference),
        z: reference.isEmpty || new.isEmpty ? nil : SequentialDesign.rankZ(reference: reference, new: new))
      log.withLock { $0.append(cell) }
      return true
    }
  }

  /// The counted runs' `phase` in run order, a failed run `+∞` (as
  /// `BenchResults.Cell.rankedSamples(for:)` reads a cell); a finished run without the phase
  /// is left out.
  static func rankedSamples(_ records: [BenchResults.RunRecord], phase: String) -> [Double] {
    records.compactMap { record in
      guard record.ok else { return .infinity }
      return record.phases[phase].flatMap { $0.isFinite ? $0 : nil }
    }
  }

  /// The record of the design and of where each cell stopped (`settings.sequential`).
  func sequentialRecord(_ cells: [BenchResults.SequentialAB.Cell]) -> BenchResults.SequentialAB? {
    guard let design else { return nil }
    return BenchResults.SequentialAB(
      phase: decidedPhase, pairsPerLook: design.pairsPerLook, looks: design.looks,
      spending: design.spending.rawValue, alpha: design.alpha, gatedCells: design.cells, beta: design.beta,
      threshold: design.threshold,
      powerShift: design.powerShift, efficacyBounds: design.efficacyBounds,
      equivalenceBounds: design.equivalenceBounds, cells: cells)
  }

  /// What a sequential comparison said, for people: the design, then one line per cell with its
  /// verdict, the look it stopped at, the runs it used and the bound it crossed.
  package static func sequentialText(_ record: BenchResults.SequentialAB) -> String {
    let spending = record.spending == "pocock" ? "Pocock" : "O'Brien–Fleming"
    var text =
      "sequential: a look every \(record.pairsPerLook) pairs, at most \(record.looks) looks"
      + " (\(record.maximumRunsPerSide) runs a side), \(spending)-type spending, \(alphaText(record)),"
      + " β = \(PowerAdvice.formatAlpha(record.beta)), threshold \(NumberFormat.percent(record.threshold)),"
      + " powered for \(NumberFormat.percent(record.powerShift)), on \(record.phase)\n"
    for cell in record.cells {
      let index = max(0, min(cell.look, record.looks) - 1)
      let crossed: String
      switch cell.verdict {
      case SequentialVerdict.slower.rawValue, SequentialVerdict.faster.rawValue:
        crossed = "crossed the \(cell.verdict) bound" + Self.bound(record.efficacyBounds, index)
      case SequentialVerdict.same.rawValue:
        crossed = "crossed the SAME bound" + Self.bound(record.equivalenceBounds, index)
      default:
        crossed = "no bound crossed"
      }
      let ratio =
        cell.ratio.map { "ratio \(NumberFormat.ratio($0)) (\(NumberFormat.change($0)))" } ?? "no ratio"
      let z = cell.z.map { ", z = \(NumberFormat.fixed($0, decimals: 2))" } ?? ""
      text +=
        "\(cell.verdict) \(record.phase) \(cell.cell): look \(cell.look) of \(record.looks), \(cell.runsPerSide) runs a side,"
        + " \(ratio)\(z); \(crossed)\n"
    }
    return text
  }

  /// `α = 0.01 over 2 cells: 0.005 a cell`, or `α = 0.01` for one cell (or a record from
  /// before the split).
  static func alphaText(_ record: BenchResults.SequentialAB) -> String {
    let alpha = "α = \(PowerAdvice.formatAlpha(record.alpha))"
    guard let cells = record.gatedCells, cells > 1, let cellAlpha = record.cellAlpha else { return alpha }
    return "\(alpha) over \(cells) cells: \(String(format: "%g", cellAlpha)) a cell"
  }

  /// ` (z > 2.61)`, or nothing when no bound was spent at the look.
  static func bound(_ bounds: [Double?], _ index: Int) -> String {
    guard index < bounds.count, let bound = bounds[index] else { return "" }
    return " (\(NumberFormat.fixed(bound, decimals: 2)))"
  }

  /// The exit status of a sequential comparison: the runs' `status` (0 ok, 1 runs failed or
  /// results not written, 130 interrupted), and 1 when a cell is SLOWER, as the baseline gate's
  /// failure.
  static func sequentialStatus(_ record: BenchResults.SequentialAB?, status: Int32) -> Int32 {
    guard status != 130, let record else { return status }
    return record.cells.contains { $0.verdict == SequentialVerdict.slower.rawValue } ? max(status, 1) : status
  }
}
