import Foundation
import LaunchContract
import Statistics

/// The text `bench launch-floor` prints: per program its binary size and spawn → `app.main` p50
/// (p90) per condition; camera-app's ratio to each reference program (p50 over p50); the launch
/// goals, met or not (``goalLines``); the files camera-app maps while its synthetic camera runs,
/// largest first.
package struct LaunchFloorReport: Sendable {
  /// What each program's launches gave; camera-app is the one named `camera-app`.
  package var reports: [LaunchFloor.Report]
  /// The conditions measured, as columns.
  package var conditions: [LaunchCondition]

  /// Creates the report.
  package init(reports: [LaunchFloor.Report], conditions: [LaunchCondition]) {
    self.reports = reports
    self.conditions = conditions
  }

  /// The median of `program`'s launches in `condition`, in ms (NaN without launches).
  package func median(_ program: String, _ condition: LaunchCondition) -> Double {
    Statistics.median(reports.first { $0.program.name == program }?.samples[condition] ?? [])
  }

  /// The whole report.
  package var text: String {
    let n = reports.flatMap { $0.samples.values.map(\.count) }.max() ?? 0
    var rows = [["program", "binary"] + conditions.map { "\($0.rawValue) p50 (p90)" }]
    for report in reports {
      var row = [report.program.name, Self.bytes(report.binaryBytes)]
      for condition in conditions {
        let samples = report.samples[condition] ?? []
        row.append(
          "\(Self.ms(Statistics.percentile(samples, 0.5))) (\(Self.ms(Statistics.percentile(samples, 0.9))))")
      }
      rows.append(row)
    }
    var out =
      "launch stage one: spawn → app.main in ms, \(n) launches per program and condition, interleaved\n"
    out += Self.table(rows)
    out += "\n"
    for reference in reports where reference.program.name != "camera-app" {
      let ratios = conditions.map { condition in
        "\(condition.rawValue) \(Self.factor(median("camera-app", condition) / median(reference.program.name, condition)))×"
      }
      out += "camera-app / \(reference.program.name): \(ratios.joined(separator: ", "))\n"
    }
    let goals = goalLines
    if !goals.isEmpty { out += "\n" + goals.joined(separator: "\n") + "\n" }
    if let app = reports.first(where: { $0.program.name == "camera-app" }) {
      let total = app.mappedFiles.values.reduce(0, +)
      out +=
        "\ncamera-app maps \(app.mappedFiles.count) files (\(Self.bytes(total))) while its synthetic camera runs:\n"
      for (path, size) in app.mappedFiles.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
        out += "  \(Self.bytes(size).padding(toLength: 9, withPad: " ", startingAt: 0)) \(path)\n"
      }
    }
    return out
  }

  /// Columns padded to their widest cell, two spaces apart.
  static func table(_ rows: [[String]]) -> String {
    let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == 0
          ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  /// `0.52`, `12.3`, `123` (ms).
  static func ms(_ v: Double) -> String {
    guard v.isFinite else { return "–" }
    return v < 10
      ? String(format: "%.2f", v) : v < 100 ? String(format: "%.1f", v) : String(format: "%.0f", v)
  }

  /// `2.1` or `16` for a factor.
  static func factor(_ v: Double) -> String {
    v.isFinite ? String(format: v < 10 ? "%.1f" : "%.0f", v) : "–"
  }

  /// `15.9 KB`, `71.1 MB` (powers of 1024).
  static func bytes(_ n: Int64) -> String {
    let units = ["B", "KB", "MB", "GB"]
    var value = Double(n)
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
      value /= 1024
      unit += 1
    }
    return unit == 0 ? "\(n) B" : String(format: "%.1f %@", value, units[unit])
  }
}
