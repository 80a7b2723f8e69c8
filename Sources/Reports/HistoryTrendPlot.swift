import Foundation
import HistoryAnalysis
import ResultsSchema
import RunAnalysis

/// `bench history show --svg DIR`: one SVG per series, in the results plots' style (SVGPlot):
/// each benchmark's median as a dot on its 95 % interval, benchmarks evenly spaced in time order,
/// each dot linked to its commit; change points as dashed red lines with their shift; a failed
/// run count under its dot.
package enum HistoryTrendPlot {
  /// The link of each commit: `{commit}` in the template is replaced by the full hash.
  package static let defaultCommitURL = "https://github.com/search?type=commits&q={commit}"

  /// The plot of `series` with `changePoints` (those of this series) marked.
  package static func svg(
    _ series: HistorySeries, changePoints: [HistoryChangePoint], commitURL: String = defaultCommitURL
  ) -> String {
    let points = series.points.filter { $0.median.isFinite }
    let width = 960.0
    let height = 420.0
    var c = SVGCanvas(width: width, height: height)
    let k = series.key
    c.text(
      "\(k.phase) · \(k.cell) · \(k.camera) · \(k.hostname) (\(HistoryReport.short(k.machine)))", x: 30,
      y: 28,
      size: 16, weight: "bold")
    c.text(
      "median of each benchmark's runs with its 95 % interval (ms); a dot links to its commit", x: 30, y: 48,
      size: 12, fill: "#555")
    let (left, right, top, bottom) = (80.0, width - 30, 70.0, height - 70)
    let low = points.map { $0.interval.lower.isFinite ? $0.interval.lower : $0.median }.min() ?? 0
    let high = points.map { $0.interval.upper.isFinite ? $0.interval.upper : $0.median }.max() ?? 1
    let pad = Swift.max((high - low) * 0.08, high * 0.01, 0.5)
    let (lo, hi) = (low - pad, high + pad)
    func y(_ v: Double) -> Double { bottom - (bottom - top) * (v - lo) / (hi - lo) }
    func x(_ i: Int) -> Double {
      points.count < 2 ? (left + right) / 2 : left + (right - left) * Double(i) / Double(points.count - 1)
    }
    drawAxes(&c, left: left, right: right, top: top, bottom: bottom, lo: lo, hi: hi, y: y)
    for change in changePoints where change.index > 0 && change.index < points.count {
      let cx = (x(change.index - 1) + x(change.index)) / 2
      c.line(x1: cx, y1: top, x2: cx, y2: bottom, stroke: "#c0392b", width: 1.5, dash: "5,4")
      let shift = (change.shift >= 0 ? "+" : "") + NumberFormat.fixed(change.shift * 100, decimals: 1) + " %"
      c.text(
        "\(shift) (p = \(NumberFormat.ratio(change.pValue)))", x: cx + 4, y: top + 12, size: 11,
        fill: "#c0392b")
    }
    for (i, p) in points.enumerated() {
      if p.interval.lower.isFinite && p.interval.upper.isFinite {
        c.line(
          x1: x(i), y1: y(p.interval.lower), x2: x(i), y2: y(p.interval.upper), stroke: "#7f8c8d", width: 1.5)
      }
      c.beginLink(commitURL.replacingOccurrences(of: "{commit}", with: p.commit))
      c.circle(
        cx: x(i), cy: y(p.median), r: 4, fill: p.failed > 0 ? "#e67e22" : "#2c7fb8",
        title:
          "\(p.commit) · \(p.time) · median \(NumberFormat.ms(p.median)) ms [\(NumberFormat.ms(p.interval.lower)), \(NumberFormat.ms(p.interval.upper))] · \(p.failed) of \(p.runs) failed"
      )
      c.endLink()
      if p.failed > 0 {
        c.text("\(p.failed)✗", x: x(i), y: bottom + 14, size: 10, anchor: .middle, fill: "#e67e22")
      }
    }
    drawCommits(&c, points: points, x: x, bottom: bottom)
    return c.svg
  }

  /// The y axis: five labelled grid lines from `lo` to `hi` (ms).
  static func drawAxes(
    _ c: inout SVGCanvas, left: Double, right: Double, top: Double, bottom: Double, lo: Double, hi: Double,
    y: (Double) -> Double
  ) {
    for step in 0...4 {
      let v = lo + (hi - lo) * Double(step) / 4
      c.line(x1: left, y1: y(v), x2: right, y2: y(v), stroke: "#e5e5e5")
      c.text(NumberFormat.ms(v), x: left - 6, y: y(v) + 4, size: 11, anchor: .end, fill: "#555")
    }
    c.line(x1: left, y1: top, x2: left, y2: bottom, stroke: "#999")
    c.line(x1: left, y1: bottom, x2: right, y2: bottom, stroke: "#999")
  }

  /// Commit labels under the axis: about twelve of them, the first and last always, with the date.
  static func drawCommits(
    _ c: inout SVGCanvas, points: [HistorySeries.Point], x: (Int) -> Double, bottom: Double
  ) {
    guard !points.isEmpty else { return }
    let every = Swift.max(1, (points.count + 11) / 12)
    for i in points.indices where i % every == 0 || i == points.count - 1 {
      c.text(
        String(points[i].commit.prefix(7)), x: x(i), y: bottom + 30, size: 10, anchor: .middle, fill: "#333")
      c.text(
        String(points[i].time.prefix(10)), x: x(i), y: bottom + 44, size: 9, anchor: .middle, fill: "#777")
    }
  }

  /// The plot's file name: host, machine, camera, cell and phase, safe for any file system
  /// (`bench-1-7f572427-synthetic-warm-deferred-first_frame_observed.svg`).
  package static func fileName(_ key: HistorySeries.Key) -> String {
    var parts = [
      k(key.hostname), HistoryReport.short(key.machine), k(key.camera), key.condition, key.config, key.phase,
    ]
    if !key.distinction.isEmpty {
      parts.append(HistoryReport.short(ContentHash.fnv1a64(Array(key.setup.description.utf8))))
    }
    return parts.map(k).joined(separator: "-") + ".svg"
  }

  private static func k(_ s: String) -> String {
    String(s.map { $0.isLetter || $0.isNumber || "_.-".contains($0) ? $0 : "_" })
  }
}
