import Foundation
import LaunchContract
import ResultsSchema
import RunAnalysis

/// The terminal table and `samples.csv`.
public enum ResultsTable {
  /// Phases as rows, cells as columns: `p50 (p90)` in ms over every counted run, a failed run
  /// ranked after every finished one (`≥ timeout` when the percentile falls among failed runs,
  /// with a footnote naming the run timeout); failures in the last rows.
  public static func text(_ results: BenchResults) -> String {
    let cells = results.cells
    guard !cells.isEmpty else { return "no runs finished\n" }
    let headers = ["phase (ms, p50 (p90))"] + cells.map { "\($0.condition)/\($0.config)" }
    var rows = phaseRows(cells)
    rows.append(["runs ok/total"] + cells.map { "\($0.runs - $0.failed)/\($0.runs)" })
    rows.append(["failed runs"] + cells.map { "\($0.failed) of \($0.runs) failed" })
    rows.append(
      ["stale frames"]
        + cells.map { c in String(c.records.reduce(0) { $0 + ($1.counts[.staleFrames] ?? 0) }) })
    rows.append(
      ["dropped frames"]
        + cells.map { c in String(c.records.reduce(0) { $0 + ($1.counts[.droppedFrames] ?? 0) }) })
    if cells.contains(where: { $0.changeDetected.change > 0 }) {
      rows.append(
        ["first frame found by"]
          + cells.map { c in
            (c.detection ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
              .joined(separator: ", ")
          })
    }
    let malformed = cells.map { c in c.records.reduce(0) { $0 + ($1.counts[.malformedTraceLines] ?? 0) } }
    if malformed.contains(where: { $0 > 0 }) {
      rows.append(["malformed trace lines"] + malformed.map(String.init))
    }
    var out = columns([headers] + rows)
    if rows.contains(where: { $0.contains { $0.contains(NumberFormat.timeout) } }) {
      out += "- \(NumberFormat.timeoutNote(runTimeoutSeconds: [results.settings.runTimeoutSeconds]))\n"
    }
    var notes: [String: [String]] = [:]
    for c in cells {
      for (phase, reason) in (c.notApplicable ?? [:]).sorted(by: { $0.key < $1.key }) {
        notes["\(phase): \(reason)", default: []].append("\(c.condition)/\(c.config)")
      }
    }
    for (note, where_) in notes.sorted(by: { $0.key < $1.key }) {
      out += "- not applicable in \(where_.joined(separator: ", ")): \(note)\n"
    }
    for (cell, reason) in (results.settings.notRun ?? [:]).sorted(by: { $0.key < $1.key }) {
      out += "- not applicable, not run: \(cell): \(reason)\n"
    }
    out += conditionNotes(cells)
    if let delay = results.settings.injectDelayMs {
      out +=
        "- injected delay: camera-app was told to wait \(delay) ms before starting preview (--inject-delay-ms,"
        + " FIRSTFRAME_INJECT_DELAY_MS); the first frame moves by whole frame intervals of the camera, so a"
        + " median can move by less or more than \(delay) ms\n"
    }
    for c in cells {
      let forged = c.records.reduce(0) { $0 + ($1.counts[.forgedEvents] ?? 0) }
      guard forged > 0 else { continue }
      let runs = c.records.filter { ($0.counts[.forgedEvents] ?? 0) > 0 }.count
      out +=
        "- forged events in \(c.condition)/\(c.config): the app wrote \(forged) event\(forged == 1 ? "" : "s") that only"
        + " the runner or the probe may write (launch.*, relock.*, display.*) in \(runs) of \(c.records.count) runs;"
        + " ignored\n"
    }
    for c in cells {
      let runs = c.records.filter { ($0.counts[.forgedBoards] ?? 0) > 0 }.count
      guard runs > 0 else { continue }
      out +=
        "- forged light boards in \(c.condition)/\(c.config): \(runs) of \(c.records.count) runs showed a board"
        + " dated after its scanout (drawn, not captured); those runs failed\n"
    }
    for note in results.detectionNotes { out += "- \(note)\n" }
    out += verificationNotes(results)
    out += windowNotes(results)
    return out
  }

  /// `rows` (the first one the header) as aligned columns: the first left-aligned, the others
  /// right-aligned, two spaces apart, a rule under the header.
  static func columns(_ rows: [[String]]) -> String {
    let widths = (0..<(rows.first?.count ?? 0)).map { col in rows.map { $0[col].count }.max() ?? 0 }
    var out = ""
    for (i, row) in rows.enumerated() {
      out +=
        row.enumerated().map { col, text in
          col == 0
            ? text.padding(toLength: widths[col], withPad: " ", startingAt: 0)
            : String(repeating: " ", count: widths[col] - text.count) + text
        }.joined(separator: "  ") + "\n"
      if i == 0 { out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n" }
    }
    return out
  }

  /// One row per phase some cell measured: `p50 (p90)` of each cell, ms, over every counted run
  /// with failed runs ranked last (`≥ timeout` among them), `-` where the cell has no value.
  static func phaseRows(_ cells: [BenchResults.Cell]) -> [[String]] {
    let phases = (PhaseName.all + PhaseName.device).filter { phase in
      cells.contains { $0.phases[phase] != nil }
    }
    return phases.map { phase in
      [phase]
        + cells.map { c in
          guard c.phases[phase] != nil || c.showsRanked, let q = c.rankedPercentiles(for: phase, [0.5, 0.9])
          else { return "-" }
          return "\(ranked(q[0])) (\(ranked(q[1])))"
        }
    }
  }

  /// One row per run and phase: `condition,config,camera,run,ok,phase,ms`.
  public static func csv(_ results: BenchResults) -> String {
    var out = "condition,config,camera,run,ok,phase,ms\n"
    for c in results.cells {
      for r in c.records {
        for phase in PhaseName.all + PhaseName.device {
          guard let ms = r.phases[phase] else { continue }
          out +=
            "\(c.condition),\(c.config),\(csvField(c.camera)),\(r.run),\(r.ok),\(phase),\(String(format: "%.3f", ms))\n"
        }
      }
    }
    return out
  }

  static func csvField(_ s: String) -> String {
    s.contains(",") || s.contains("\"") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
  }

  static func fmt(_ v: Double) -> String { String(format: v >= 100 ? "%.0f" : "%.1f", v) }

  /// `fmt`, or `≥ timeout` for a percentile among failed runs (+∞).
  static func ranked(_ v: Double) -> String { v == .infinity ? NumberFormat.timeout : fmt(v) }
}
