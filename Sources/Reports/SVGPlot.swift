import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics
/// `plot.svg`: what a person looks at first.
///
/// 1. The headline: the distribution of `first_frame_observed` per cell (every run a dot, the
///    box p25–p75, whiskers min–max, a thick median line), grouped by condition, deferred vs eager
///    side by side on one shared axis.
/// 2. A timeline of one median run per configuration in the first condition (recorded events when
///    the runner filled `timeline`, else phase durations from t = 0).
/// 3. Small multiples: one strip/box panel per phase, one row per cell.
/// 4. When the runs have `thread_states` (issue 27): per phase, one stacked bar per cell and
///    method of the main thread's running, runnable, io and sleeping medians.
public enum SVGPlot {
  /// Colours per configuration (colour-blind safe, Okabe–Ito).
  static let configColors = [
    LaunchConfiguration.deferred.rawValue: "#0072B2", LaunchConfiguration.eager.rawValue: "#D55E00",
    LaunchConfiguration.manual.rawValue: "#009E73", LaunchConfiguration.previewOnly.rawValue: "#CC79A7",
  ]
  static let fallbackColors = ["#E69F00", "#56B4E9", "#F0E442", "#000000"]

  static func color(_ config: String, in configs: [String]) -> String {
    if let c = configColors[config] { return c }
    let i = configs.firstIndex(of: config) ?? 0
    return fallbackColors[i % fallbackColors.count]
  }

  /// The SVG text.
  public static func svg(results: BenchResults) -> String {
    let width = 1200.0
    let cells = results.orderedCells
    let configs = cells.map(\.config).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let phases =
      PhaseName.all.filter { p in cells.contains { !$0.samples(for: p).isEmpty } }
      + Set(cells.flatMap(\.phaseNames)).subtracting(PhaseName.all).sorted()

    // Heights, computed up front.
    let headRowH = 22.0
    let conditions = cells.map(\.condition).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let headlineH = 60 + Double(cells.count) * headRowH + Double(conditions.count) * 10 + 40
    let timelineCells = cells.filter { $0.condition == conditions.first }
    let timelineRows = timelineCells.map {
      cell -> (BenchResults.Cell, BenchResults.RunRecord, TimelineSpans)? in
      guard let run = MedianRun.pick(cell) else { return nil }
      return (cell, run, run.timeline.map { TimelineSpans(events: $0) } ?? TimelineSpans(phases: run.phases))
    }.compactMap { $0 }
    let laneH = 16.0
    let timelineBlockHeights = timelineRows.map { row -> Double in
      28 + Double(rowsNeeded(row.2)) * laneH + 8
    }
    let timelineH = timelineRows.isEmpty ? 0 : 50 + timelineBlockHeights.reduce(0, +) + 30
    let panelRowH = 13.0
    let panelH = 40 + Double(cells.count) * panelRowH + 30
    let panelRows = (phases.count + 1) / 2
    let panelsH = phases.isEmpty ? 0 : 40 + Double(panelRows) * panelH
    let states = ThreadStatesSummary(results: results)
    let statesH = statesHeight(states)
    let height = 80 + headlineH + timelineH + panelsH + statesH + 20

    var c = SVGCanvas(width: width, height: height)
    // Title.
    c.text("FirstFrame — camera launch latency", x: 30, y: 36, size: 22, weight: "bold")
    var sub = "\(results.settings.runs) runs per cell · camera \(results.settings.camera)"
    if let p = results.settings.profileName { sub += " · profile \(p)" }
    sub +=
      " · \(results.tool.name) \(results.tool.version) · \(results.host.hostname), \(results.host.cpus) CPUs · \(results.settings.startedAt)"
    c.text(sub, x: 30, y: 58, size: 12, fill: "#555")
    var y = 80.0

    // 1. Headline distribution.
    y = drawHeadline(
      &c, cells: cells, configs: configs, conditions: conditions, top: y, width: width, rowH: headRowH)

    // 2. Timeline.
    if !timelineRows.isEmpty {
      y = drawTimeline(&c, rows: timelineRows, configs: configs, top: y + 10, width: width, laneH: laneH)
    }

    // 3. Small multiples, and 4. (with thread states) the main thread's states per phase.
    if statesH > 0 { drawStates(&c, summary: states, top: y + panelsH, width: width) }
    if !phases.isEmpty {
      c.text(
        "Every phase, per cell (ms): dots are runs, box p25–p75, line the median", x: 30, y: y + 28, size: 15,
        weight: "bold")
      y += 40
      let panelW = (width - 60 - 30) / 2
      for (i, phase) in phases.enumerated() {
        let px = 30 + Double(i % 2) * (panelW + 30)
        let py = y + Double(i / 2) * panelH
        drawPanel(&c, phase: phase, cells: cells, configs: configs, x: px, y: py, w: panelW, rowH: panelRowH)
      }
    }
    return c.svg
  }

  static func rowsNeeded(_ spans: TimelineSpans) -> Int {
    var n = 0
    for (process, _) in spans.processes {
      let lanes = spans.rows(of: process).count
      let hasInstants = spans.instants.contains { $0.process == process }
      n += Swift.max(lanes, hasInstants ? 1 : 0)
    }
    return Swift.max(1, n)
  }

  /// Draws the per-cell distribution of first_frame_observed on one axis; returns the next y.
  static func drawHeadline(
    _ c: inout SVGCanvas, cells: [BenchResults.Cell], configs: [String], conditions: [String], top: Double,
    width: Double, rowH: Double
  ) -> Double {
    let phase = PhaseName.firstFrameObserved
    c.text(
      "First frame observed: open → first live frame seen on the display (ms)", x: 30, y: top + 16, size: 16,
      weight: "bold")
    // Legend.
    var lx = width - 30.0
    for config in configs.reversed() {
      let w = Double(config.count) * 7 + 26
      lx -= w
      c.rect(x: lx, y: top + 6, w: 12, h: 12, fill: color(config, in: configs), rx: 2)
      c.text(config, x: lx + 16, y: top + 16, size: 12)
    }
    let left = 190.0
    let right = width - 150
    let all = cells.flatMap { $0.samples(for: phase) }
    let maxV = (all.max() ?? 1) * 1.05
    let ticks = SVGCanvas.ticks(maximum: maxV)
    let scaleMax = ticks.last ?? maxV
    func x(_ v: Double) -> Double { left + (right - left) * v / scaleMax }
    var y = top + 40
    let plotTop = y
    var rowYs: [(BenchResults.Cell, Double)] = []
    for condition in conditions {
      for cell in cells where cell.condition == condition {
        rowYs.append((cell, y))
        y += rowH
      }
      y += 10
    }
    let plotBottom = y - 10
    for t in ticks {
      c.line(x1: x(t), y1: plotTop - 4, x2: x(t), y2: plotBottom, stroke: "#e3e3e3")
      c.text(SVGCanvas.n(t), x: x(t), y: plotBottom + 16, size: 11, anchor: .middle, fill: "#555")
    }
    var previousCondition = ""
    for (cell, ry) in rowYs {
      let samples = cell.samples(for: phase)
      let col = color(cell.config, in: configs)
      if cell.condition != previousCondition {
        c.text(cell.condition, x: 30, y: ry + rowH / 2 + 4, size: 13, weight: "bold")
        previousCondition = cell.condition
      }
      c.text(cell.config, x: left - 10, y: ry + rowH / 2 + 4, size: 12, anchor: .end)
      drawStrip(&c, samples: samples, color: col, y: ry, h: rowH, x: x, label: "\(CellKey(cell).name)")
      if !samples.isEmpty {
        let med = Statistics.median(samples)
        let failed = cell.failed > 0 ? "  (\(cell.failed) failed)" : ""
        c.text(
          "p50 \(NumberFormat.ms(med)) · n \(samples.count)\(failed)", x: right + 8, y: ry + rowH / 2 + 4,
          size: 11,
          fill: "#333")
      } else {
        c.text("no successful runs", x: left + 4, y: ry + rowH / 2 + 4, size: 11, fill: "#a00")
      }
    }
    return plotBottom + 30
  }

  /// A box (p25–p75), whiskers (min–max), median and jittered dots in one row.
  static func drawStrip(
    _ c: inout SVGCanvas, samples: [Double], color: String, y: Double, h: Double, x: (Double) -> Double,
    label: String
  ) {
    guard !samples.isEmpty else { return }
    let sorted = samples.sorted()
    let q1 = Statistics.percentile(sorted: sorted, 0.25)
    let q3 = Statistics.percentile(sorted: sorted, 0.75)
    let med = Statistics.percentile(sorted: sorted, 0.5)
    let mid = y + h / 2
    c.line(x1: x(sorted.first!), y1: mid, x2: x(sorted.last!), y2: mid, stroke: color, width: 1)
    c.line(x1: x(sorted.first!), y1: mid - h * 0.2, x2: x(sorted.first!), y2: mid + h * 0.2, stroke: color)
    c.line(x1: x(sorted.last!), y1: mid - h * 0.2, x2: x(sorted.last!), y2: mid + h * 0.2, stroke: color)
    c.rect(
      x: x(q1), y: y + h * 0.15, w: Swift.max(1, x(q3) - x(q1)), h: h * 0.7, fill: color, stroke: color,
      opacity: 0.18,
      title:
        "\(label): p25 \(NumberFormat.ms(q1)) ms, p50 \(NumberFormat.ms(med)) ms, p75 \(NumberFormat.ms(q3)) ms"
    )
    var rng = SplitMix64(seed: SplitMix64.stableHash(label))
    for v in samples {
      let jitter = (rng.nextUnit() - 0.5) * h * 0.5
      c.circle(
        cx: x(v), cy: mid + jitter, r: h > 16 ? 2.6 : 1.9, fill: color, opacity: 0.75,
        title: "\(label): \(NumberFormat.ms(v)) ms")
    }
    c.line(x1: x(med), y1: y + h * 0.08, x2: x(med), y2: y + h * 0.92, stroke: "#111", width: 2.2)
  }

  /// Gantt chart of one median run per configuration; returns the next y.
  static func drawTimeline(
    _ c: inout SVGCanvas, rows: [(BenchResults.Cell, BenchResults.RunRecord, TimelineSpans)],
    configs: [String], top: Double,
    width: Double, laneH: Double
  ) -> Double {
    let condition = rows.first?.0.condition ?? ""
    let fromEvents = rows.allSatisfy(\.2.fromEvents)
    c.text(
      "Timeline of the median run, \(condition) (ms since "
        + (condition == LaunchCondition.relock.rawValue ? "unlock" : "spawn")
        + ")"
        + (fromEvents ? "" : " — durations only: the results carry no per-run timeline"),
      x: 30, y: top + 16, size: 16, weight: "bold")
    let left = 300.0
    let right = width - 40
    let maxT = (rows.map { $0.2.end }.max() ?? 1) * 1.02
    let ticks = SVGCanvas.ticks(maximum: maxT, count: 8)
    let scaleMax = ticks.last ?? maxT
    func x(_ v: Double) -> Double { left + (right - left) * Swift.max(0, v) / scaleMax }
    var y = top + 34
    let plotTop = y
    var blocks: [(Double, Double)] = []
    for (cell, run, spans) in rows {
      let col = color(cell.config, in: configs)
      c.text("\(cell.config) · run \(run.run)", x: 30, y: y + 14, size: 13, weight: "bold", fill: col)
      if let ffo = run.phases[PhaseName.firstFrameObserved] {
        c.text("first frame \(NumberFormat.ms(ffo)) ms", x: 30, y: y + 28, size: 11, fill: "#555")
      }
      let blockTop = y
      y += 6
      for (process, _) in spans.processes {
        let own = spans.spans.filter { $0.process == process }
        let rowOf = spans.rows(of: process)
        let lanes = Swift.max(1, rowOf.count)
        c.text(process, x: left - 8, y: y + laneH - 4, size: 10, anchor: .end, fill: "#777")
        for s in own {
          let row = rowOf["\(s.lane)/\(s.depth)"] ?? 0
          let ly = y + Double(row) * laneH
          c.rect(
            x: x(s.start), y: ly + 1, w: Swift.max(1.5, x(s.end) - x(s.start)), h: laneH - 3, fill: col,
            opacity: s.depth == 0 ? 0.6 : 0.4, rx: 2,
            title:
              "\(s.name): \(NumberFormat.ms(s.start))–\(NumberFormat.ms(s.end)) ms (\(NumberFormat.ms(s.end - s.start)) ms)"
          )
          let w = x(s.end) - x(s.start)
          if w > Double(s.name.count) * 5.6 + 6 {
            c.text(s.name, x: x(s.start) + 3, y: ly + laneH - 5, size: 9.5, fill: "#111")
          } else if !own.contains(where: { rowOf["\($0.lane)/\($0.depth)"] == row && $0.start >= s.end }) {
            // Too narrow: label after the bar, but only when nothing follows it in this row.
            c.text(s.name, x: x(s.end) + 3, y: ly + laneH - 5, size: 9.5, fill: "#444")
          }
        }
        for i in spans.instants where i.process == process {
          let ix = x(i.t)
          let live = i.name == "display.first_live_frame"
          c.line(x1: ix, y1: y, x2: ix, y2: y + laneH, stroke: live ? "#111" : "#666", width: live ? 2.5 : 1)
          if live { c.text("first live frame", x: ix + 4, y: y + laneH - 4, size: 10, weight: "bold") }
        }
        y += Double(lanes) * laneH
      }
      y = Swift.max(y, blockTop + 34) + 8
      blocks.append((blockTop, y))
    }
    for t in ticks {
      c.line(x1: x(t), y1: plotTop - 2, x2: x(t), y2: y - 6, stroke: "#ececec")
      c.text(SVGCanvas.n(t), x: x(t), y: y + 8, size: 10, anchor: .middle, fill: "#555")
    }
    return y + 24
  }

  /// One small-multiple panel: a phase's strip/box per cell.
  static func drawPanel(
    _ c: inout SVGCanvas, phase: String, cells: [BenchResults.Cell], configs: [String], x px: Double,
    y py: Double,
    w: Double, rowH: Double
  ) {
    c.text(phase, x: px, y: py + 14, size: 13, weight: "bold")
    let left = px + 120
    let right = px + w - 60
    let values = cells.flatMap { $0.samples(for: phase) }
    let maxV = (values.max() ?? 1) * 1.05
    let ticks = SVGCanvas.ticks(maximum: maxV, count: 5)
    let scaleMax = ticks.last ?? maxV
    func x(_ v: Double) -> Double { left + (right - left) * v / scaleMax }
    let top = py + 24
    let bottom = top + Double(cells.count) * rowH
    c.rect(x: left, y: top - 2, w: right - left, h: bottom - top + 4, fill: "#fafafa", stroke: "#e0e0e0")
    for t in ticks {
      c.line(x1: x(t), y1: top - 2, x2: x(t), y2: bottom + 2, stroke: "#e6e6e6")
      c.text(SVGCanvas.n(t), x: x(t), y: bottom + 14, size: 9.5, anchor: .middle, fill: "#666")
    }
    for (i, cell) in cells.enumerated() {
      let ry = top + Double(i) * rowH
      c.text(CellKey(cell).name, x: left - 6, y: ry + rowH - 3, size: 9.5, anchor: .end, fill: "#444")
      let samples = cell.samples(for: phase)
      if samples.isEmpty {
        c.text("–", x: left + 4, y: ry + rowH - 3, size: 9.5, fill: "#999")
        continue
      }
      drawStrip(
        &c, samples: samples, color: color(cell.config, in: configs), y: ry, h: rowH, x: x,
        label: "\(phase) \(CellKey(cell).name)")
      c.text(
        NumberFormat.ms(Statistics.median(samples)), x: right + 6, y: ry + rowH - 3, size: 9.5, fill: "#333")
    }
  }
}
