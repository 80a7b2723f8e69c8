import Foundation
import RunAnalysis

/// How `bench history show` and `detect` print: a table for people, CSV for other tools
/// (Apache Otava's layout for the series), JSON.
package enum HistoryReport {
  /// One block per series: a heading (host and machine fingerprint, camera, cell, phase, and
  /// what tells it from other series of that cell and phase: `profile fnv1a64:…`), then
  /// one line per benchmark: commit, time, the median with its 95 % interval (ms), k of n failed.
  package static func table(_ series: [HistorySeries]) -> String {
    guard !series.isEmpty else { return "no benchmarks match\n" }
    var out = ""
    for s in series {
      out +=
        "\(s.key.hostname) (\(short(s.key.machine))) · \(s.key.camera) · \(s.key.cell) · \(s.key.phase)"
        + (s.key.distinction.isEmpty ? "" : " · \(s.key.distinction)") + "\n"
      out += "  commit        time                  median ms  95 % interval        failed\n"
      for p in s.points {
        let interval = "[\(NumberFormat.ms(p.interval.lower)), \(NumberFormat.ms(p.interval.upper))]"
        out +=
          "  " + pad(String(p.commit.prefix(12)), 13) + " " + pad(p.time, 21) + " "
          + pad(NumberFormat.ms(p.median), 10, right: true) + "  " + pad(interval, 20)
          + " \(p.failed) of \(p.runs)\n"
      }
    }
    return out
  }

  /// Otava-compatible CSV: one row per machine × benchmark, columns `time`, `commit`, `branch`,
  /// `machine`, then one metric column per camera × cell × phase (`warm/deferred/first_frame_observed`,
  /// the camera first when there is more than one, what tells series of one cell and phase apart
  /// after it in brackets), holding the median in ms (empty when absent).
  package static func csv(_ series: [HistorySeries]) -> String {
    let cameras = Set(series.map(\.key.camera))
    func metric(_ k: HistorySeries.Key) -> String {
      (cameras.count > 1 ? "\(k.camera)/" : "") + "\(k.cell)/\(k.phase)"
        + (k.distinction.isEmpty ? "" : " [\(k.distinction)]")
    }
    let metrics = Array(Set(series.map { metric($0.key) })).sorted()
    struct Row: Hashable { var machine: String, benchmark: Int64 }
    var rows: [Row: (time: String, commit: String, branch: String, values: [String: Double])] = [:]
    for s in series {
      for p in s.points {
        let row = Row(machine: s.key.machine, benchmark: p.benchmark)
        rows[row, default: (p.time, p.commit, p.branch, [:])].values[metric(s.key)] = p.median
      }
    }
    var out = (["time", "commit", "branch", "machine"] + metrics).map(field).joined(separator: ",") + "\n"
    let ordered = rows.sorted {
      ($0.value.time, $0.key.machine, $0.key.benchmark) < ($1.value.time, $1.key.machine, $1.key.benchmark)
    }
    for (row, value) in ordered {
      let numbers = metrics.map { value.values[$0].flatMap { $0.isFinite ? String($0) : nil } ?? "" }
      out +=
        ([value.time, value.commit, value.branch, row.machine].map(field) + numbers).joined(separator: ",")
        + "\n"
    }
    return out
  }

  /// The series as JSON: `{"series": [{machine, hostname, camera, cell, phase, setup (every field,
  /// `profile …, display …`), distinction (the fields that tell it from the other series of its
  /// cell and phase, or ""), points: [{benchmark,
  /// commit, branch, time, median_ms, interval_ms, samples, runs, failed}]}]}`; NaN is null.
  package static func json(_ series: [HistorySeries]) -> String {
    struct PointJSON: Encodable {
      var benchmark: Int64, commit: String, branch: String, time: String
      var median_ms: Double?, interval_ms: [Double?], samples: Int, runs: Int, failed: Int
    }
    struct SeriesJSON: Encodable {
      var machine: String, hostname: String, camera: String, cell: String, phase: String, setup: String
      var distinction: String, points: [PointJSON]
    }
    let value = [
      "series": series.map { s in
        SeriesJSON(
          machine: s.key.machine, hostname: s.key.hostname, camera: s.key.camera, cell: s.key.cell,
          phase: s.key.phase, setup: s.key.setup.description, distinction: s.key.distinction,
          points: s.points.map {
            PointJSON(
              benchmark: $0.benchmark, commit: $0.commit, branch: $0.branch, time: $0.time,
              median_ms: finite($0.median),
              interval_ms: [finite($0.interval.lower), finite($0.interval.upper)],
              samples: $0.samples, runs: $0.runs, failed: $0.failed)
          })
      }
    ]
    return encode(value)
  }

  /// The change points, one line each: machine, cell, phase, the commit range, the shift with its
  /// interval (%), the p-value.
  package static func changePointTable(_ points: [HistoryChangePoint], seriesCount: Int) -> String {
    var out = "\(points.count) change point\(points.count == 1 ? "" : "s") in \(seriesCount) series\n"
    for c in points {
      out +=
        "\(c.hostname) (\(short(c.machine))) · \(c.camera) · \(c.cell) · \(c.phase)"
        + (c.distinction.isEmpty ? "" : " · \(c.distinction)") + ": "
        + "\(c.commitBefore.prefix(12))..\(c.commitAfter.prefix(12)) (benchmark \(c.benchmark), \(c.time)), "
        + "\(NumberFormat.ms(c.medianBefore)) → \(NumberFormat.ms(c.medianAfter)) ms, shift \(percent(c.shift)) "
        + "[\(percent(c.shiftInterval[0])), \(percent(c.shiftInterval[1]))], p = \(String(format: "%.3f", c.pValue))\n"
    }
    return out
  }

  /// The change points as CSV, one row each.
  package static func changePointCSV(_ points: [HistoryChangePoint]) -> String {
    var out =
      "machine,hostname,camera,cell,phase,commit_before,commit_after,benchmark,time,median_before_ms,"
      + "median_after_ms,shift,shift_low,shift_high,p_value,setup\n"
    for c in points {
      out += [c.machine, c.hostname, c.camera, c.cell, c.phase, c.commitBefore, c.commitAfter].map(field)
        .joined(separator: ",")
      out +=
        ",\(c.benchmark),\(field(c.time)),\(c.medianBefore),\(c.medianAfter),\(c.shift),"
        + "\(c.shiftInterval[0]),\(c.shiftInterval[1]),\(c.pValue),\(field(c.setup))\n"
    }
    return out
  }

  /// The change points as JSON: `{"change_points": [...]}` (NaN bounds are null).
  package static func changePointJSON(_ points: [HistoryChangePoint]) -> String {
    encode(["change_points": points])
  }

  static func encode(_ value: some Encodable) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return ((try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
  }

  static func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
  static func percent(_ v: Double) -> String {
    v.isFinite ? (v >= 0 ? "+" : "") + NumberFormat.fixed(v * 100, decimals: 1) + " %" : "–"
  }
  /// A machine fingerprint's short form for tables: its first 8 hex digits.
  package static func short(_ machine: String) -> String {
    String(machine.dropFirst("fnv1a64:".count).prefix(8))
  }
  static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, width - s.count))
    return right ? fill + s : s + fill
  }
  /// A CSV field, quoted when it holds a comma, a quote or a line break.
  static func field(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
      ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
  }
}
