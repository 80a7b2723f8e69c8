import ResultsSchema
import RunAnalysis

extension SVGPlot {
  /// The colour of each main-thread state in the stacked bars (Okabe–Ito, as the configurations).
  static let stateColors = [
    "running": "#009E73", "runnable": "#E69F00", "io": "#D55E00", "sleeping": "#56B4E9",
  ]
  /// The height of one bar's row in the thread-states panels.
  static let statesRowH = 14.0

  /// The groups the thread-states section draws: those with a complete run.
  static func statesGroups(_ summary: ThreadStatesSummary) -> [ThreadStatesSummary.Group] {
    summary.groups.filter { $0.runs > 0 }
  }

  /// The height of the thread-states section; 0 when no complete run has main-thread figures
  /// (the plot then has no such section).
  static func statesHeight(_ summary: ThreadStatesSummary) -> Double {
    let phases = summary.mainPhases
    guard !phases.isEmpty else { return 0 }
    return 40 + Double((phases.count + 1) / 2) * statesPanelH(rows: statesGroups(summary).count)
  }

  /// The height of one phase's panel of `rows` bars.
  static func statesPanelH(rows: Int) -> Double { 40 + Double(rows) * statesRowH + 20 }

  /// Draws, per phase, one stacked bar per cell (and method: a sampled group is its own bar):
  /// the medians of the main thread's running, runnable, io and sleeping ms, with a legend.
  static func drawStates(_ c: inout SVGCanvas, summary: ThreadStatesSummary, top: Double, width: Double) {
    let groups = statesGroups(summary)
    c.text(
      "Main thread states per phase (median ms of each state over the complete runs)", x: 30, y: top + 28,
      size: 15, weight: "bold")
    var lx = width - 30.0
    for state in ThreadStatesSummary.mainStates.reversed() {
      lx -= Double(state.count) * 7 + 26
      c.rect(x: lx, y: top + 18, w: 12, h: 12, fill: stateColors[state] ?? "#999", rx: 2)
      c.text(state, x: lx + 16, y: top + 28, size: 12)
    }
    let panelW = (width - 60 - 30) / 2
    let panelH = statesPanelH(rows: groups.count)
    for (i, phase) in summary.mainPhases.enumerated() {
      let px = 30 + Double(i % 2) * (panelW + 30)
      let py = top + 40 + Double(i / 2) * panelH
      drawStatesPanel(&c, phase: phase, groups: groups, x: px, y: py, w: panelW)
    }
  }

  /// One phase's panel: a stacked bar per group on the panel's own axis, its total on the right.
  static func drawStatesPanel(
    _ c: inout SVGCanvas, phase: String, groups: [ThreadStatesSummary.Group], x px: Double, y py: Double,
    w: Double
  ) {
    c.text(phase, x: px, y: py + 14, size: 13, weight: "bold")
    let left = px + 150
    let right = px + w - 60
    let medians = groups.map { $0.mainMedians(phase) }
    let maxV = (medians.compactMap { $0?.reduce(0, +) }.max() ?? 1) * 1.05
    let ticks = SVGCanvas.ticks(maximum: maxV, count: 5)
    let scaleMax = ticks.last ?? maxV
    func x(_ v: Double) -> Double { left + (right - left) * v / scaleMax }
    let rowH = statesRowH
    let top = py + 24
    let bottom = top + Double(groups.count) * rowH
    for t in ticks {
      c.line(x1: x(t), y1: top - 2, x2: x(t), y2: bottom + 2, stroke: "#e6e6e6")
      c.text(SVGCanvas.n(t), x: x(t), y: bottom + 14, size: 9.5, anchor: .middle, fill: "#666")
    }
    for (i, (g, values)) in zip(groups, medians).enumerated() {
      let ry = top + Double(i) * rowH
      let label = g.method == "tracefs" ? g.cell : "\(g.cell) (\(g.method))"
      c.text(label, x: left - 6, y: ry + rowH - 3, size: 9.5, anchor: .end, fill: "#444")
      guard let values else {
        c.text("–", x: left + 4, y: ry + rowH - 3, size: 9.5, fill: "#999")
        continue
      }
      var at = 0.0
      for (state, v) in zip(ThreadStatesSummary.mainStates, values) {
        c.rect(
          x: x(at), y: ry + 2, w: x(at + v) - x(at), h: rowH - 4, fill: stateColors[state] ?? "#999",
          title: "\(phase) \(label): \(state) p50 \(NumberFormat.ms(v)) ms over \(g.runs) runs")
        at += v
      }
      c.text(NumberFormat.ms(at), x: right + 6, y: ry + rowH - 3, size: 9.5, fill: "#333")
    }
  }
}
