import Foundation
import LaunchContract
import Reports
import ResultsSchema
import RunAnalysis
import Statistics
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// plot.svg and trace.json with `thread_states` (issue 27 item 2): stacked bars of the main
/// thread's states per phase, and its states as slices beside the phase slices.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ThreadStatesPlotTests {
  static func results() -> BenchResults {
    SyntheticResults.withThreadStates(
      SyntheticResults.make(configs: ["deferred", "eager"], conditions: ["cold", "relock"], runs: 5))
  }

  @Test("the SVG has a stacked bar per phase and cell of the main thread's state medians, with a legend")
  func svgStackedBars() throws {
    let results = Self.results()
    let svg = SVGPlot.svg(results: results)
    if let out = ProcessInfo.processInfo.environment["FIRSTFRAME_PLOT_OUT"] {  // to look at it
      try svg.write(toFile: out, atomically: true, encoding: .utf8)
      try TraceExport.json(results: results).write(
        toFile: out + ".trace.json", atomically: true, encoding: .utf8)
      var mixed = results
      mixed.cells[0].records[0].threadStates?.method = "sampled"
      mixed.cells[0].records[0].threadStates?.errorBoundMs = 3
      mixed.cells[1].records[1].threadStates?.incomplete = true
      mixed.cells[1].records[1].threadStates?.lostEvents = 12
      try ThreadStatesTable.text(mixed).write(toFile: out + ".states.txt", atomically: true, encoding: .utf8)
    }
    #expect(XMLParser(data: Data(svg.utf8)).parse())
    #expect(svg.contains("Main thread states per phase"))
    for state in ThreadStatesSummary.mainStates {
      #expect(svg.contains(">\(state)</text>"), "legend: \(state)")
    }
    // The bar's running segment carries the median of the cell's running ms.
    let cell = results.orderedCells[0]
    let running = cell.records.compactMap { $0.threadStates?.main[PhaseName.startRunning]?.running }
    #expect(running.count == 5)
    let median = Statistics.median(running)
    let shown = String(format: median < 10 ? "%.2f" : "%.1f", median)  // the plot's ms format
    #expect(svg.contains("\(PhaseName.startRunning) deferred/cold: running p50 \(shown) ms over 5 runs"))
    #expect(!svg.contains("nan") && !svg.contains("inf"))
  }

  @Test("a sampled cell gets its own bar, labelled, never pooled with the exact one")
  func svgSampledBar() {
    var results = Self.results()
    results.cells[0].records[0].threadStates?.method = "sampled"
    let svg = SVGPlot.svg(results: results)
    #expect(svg.contains("\(PhaseName.startRunning) deferred/cold (sampled): running p50"))
    #expect(svg.contains("over 1 runs") && svg.contains("over 4 runs"))
  }

  @Test("without thread states the SVG has no states section")
  func svgWithout() {
    let svg = SVGPlot.svg(
      results: SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 3))
    #expect(!svg.contains("Main thread states"))
  }

  /// The trace's events of `results`.
  static func traceEvents(_ results: BenchResults) throws -> [[String: Any]] {
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(TraceExport.json(results: results).utf8)) as? [String: Any])
    return try #require(root["traceEvents"] as? [[String: Any]])
  }

  @Test(
    "trace.json puts the representative run's states on a track per phase, in order from the phase's start")
  func traceSlices() throws {
    let results = Self.results()
    let events = try Self.traceEvents(results)
    for (index, cell) in results.orderedCells.enumerated() {
      let run = try #require(MedianRun.pick(cell))
      let states = try #require(run.threadStates?.main[PhaseName.startRunning])
      let begin = try #require(
        run.timeline?.first { $0.name == "session.start_running" && $0.kind == "begin" })
      let pid = 100 * (index + 1)
      let track = try #require(
        events.first {
          $0["ph"] as? String == "M" && $0["pid"] as? Int == pid
            && ($0["args"] as? [String: Any])?["name"] as? String == "main thread · start_running (tracefs)"
        })
      let tid = try #require(track["tid"] as? Int)
      let slices = events.filter {
        $0["ph"] as? String == "X" && $0["pid"] as? Int == pid && $0["tid"] as? Int == tid
      }
      .sorted { ($0["ts"] as! Double) < ($1["ts"] as! Double) }
      #expect(slices.map { $0["name"] as? String } == ThreadStatesSummary.mainStates)
      var at = begin.t_ms * 1000
      for (slice, ms) in zip(slices, [states.running, states.runnable, states.io, states.sleeping]) {
        #expect(abs((slice["ts"] as! Double) - at) <= 1, "\(cell.condition): \(slice)")
        #expect(abs((slice["dur"] as! Double) - ms * 1000) <= 1)
        at += ms * 1000
      }
    }
  }

  @Test("without thread states the trace has no state slices")
  func traceWithout() throws {
    let events = try Self.traceEvents(
      SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 3))
    #expect(!events.contains { $0["cat"] as? String == "thread_state" })
  }
}
