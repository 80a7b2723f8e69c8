import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import RunAnalysis
import TestSupport
import Testing
#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct ReportTests {
  @Test(
    "trace.json has Chrome trace-event structure: metadata, µs complete slices that nest, the first live frame as an instant"
  )
  func traceStructure() throws {
    let results = SyntheticResults.make(runs: 6)
    let text = TraceExport.json(results: results)
    let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(root["displayTimeUnit"] as? String == "ms")
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    #expect(!events.isEmpty)
    var processNames: [Int: String] = [:]
    var slicesByThread: [String: [(Double, Double, String)]] = [:]
    var liveFrames = 0
    for e in events {
      let ph = try #require(e["ph"] as? String)
      let pid = try #require(e["pid"] as? Int)
      #expect(e["tid"] is Int)
      #expect(e["name"] is String)
      switch ph {
      case "M":
        let args = try #require(e["args"] as? [String: Any])
        if e["name"] as? String == "process_name" { processNames[pid] = args["name"] as? String }
      case "X":
        let ts = try #require(e["ts"] as? Double)
        let dur = try #require(e["dur"] as? Double)
        #expect(dur >= 0 && ts >= 0)
        #expect(ts == ts.rounded(), "timestamps are whole microseconds")
        slicesByThread["\(pid)/\(e["tid"]!)", default: []].append((ts, ts + dur, e["name"] as! String))
      case "i":
        #expect(e["ts"] is Double)
        let scope = try #require(e["s"] as? String)
        #expect(["g", "p", "t"].contains(scope))
        if e["name"] as? String == "display.first_live_frame" { liveFrames += 1 }
      default:
        Issue.record("unexpected phase type \(ph)")
      }
    }
    // Every pid that has events has a process name.
    for pid in Set(events.compactMap { $0["pid"] as? Int }) {
      #expect(processNames[pid] != nil, "pid \(pid)")
    }
    #expect(liveFrames == results.cells.count, "one first live frame per cell's median run")
    #expect(processNames.values.contains { $0.hasPrefix("deferred/cold run ") && $0.hasSuffix("· app") })
    // Slices on one thread nest properly: sorted by start, each one either ends before the next
    // starts or contains it.
    for (thread, slices) in slicesByThread {
      var stack: [(Double, Double, String)] = []
      for s in slices.sorted(by: { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 > $1.1 }) {
        while let top = stack.last, top.1 <= s.0 { stack.removeLast() }
        if let top = stack.last {
          #expect(s.1 <= top.1, "\(thread): \(s.2) overlaps \(top.2) without nesting")
        }
        stack.append(s)
      }
    }
    // Units: the first_frame_observed slice of the first cell is its median run's value in µs.
    let cell = results.orderedCells[0]
    let run = try #require(MedianRun.pick(cell))
    let ffo = try #require(run.phases[PhaseName.firstFrameObserved])
    let slice = try #require(
      events.first { $0["ph"] as? String == "X" && $0["name"] as? String == PhaseName.firstFrameObserved })
    #expect(abs((slice["dur"] as! Double) - ffo * 1000) <= 1)
    // The app's nested spans survive: output.init sits inside session.configure on one lane.
    #expect(
      events.contains {
        $0["ph"] as? String == "X" && ($0["name"] as? String)?.hasPrefix("output.init (preview)") == true
      })
    #expect(events.contains { $0["ph"] as? String == "X" && $0["name"] as? String == "deferred_start" })
  }

  @Test("without a recorded timeline the trace falls back to phase durations on separate threads")
  func traceWithoutTimeline() throws {
    var results = SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 3)
    for i in results.cells[0].records.indices { results.cells[0].records[i].timeline = nil }
    let root = try #require(
      try JSONSerialization.jsonObject(with: Data(TraceExport.json(results: results).utf8)) as? [String: Any])
    let events = try #require(root["traceEvents"] as? [[String: Any]])
    let slices = events.filter { $0["ph"] as? String == "X" }
    #expect(
      Set(slices.map { "\($0["pid"]!)/\($0["tid"]!)" }).count == slices.count,
      "one thread per phase (and the bench track its own)")
  }

  @Test("the SVG is well-formed XML with a plot for the headline, the timeline and every phase")
  func svg() throws {
    let results = SyntheticResults.make(runs: 20)
    let svg = SVGPlot.svg(results: results)
    #expect(XMLParser(data: Data(svg.utf8)).parse())
    #expect(svg.contains("First frame observed"))
    #expect(svg.contains("Timeline of the median run, cold"))
    for phase in [PhaseName.startRunning, PhaseName.deferredStart, PhaseName.firstFrameObserved] {
      #expect(svg.contains(">\(phase)<"))
    }
    #expect(!svg.contains("nan") && !svg.contains("inf"))
    if let out = ProcessInfo.processInfo.environment["FIRSTFRAME_PLOT_OUT"] {
      try svg.write(toFile: out, atomically: true, encoding: .utf8)
      try TraceExport.json(results: results).write(
        toFile: out + ".trace.json", atomically: true, encoding: .utf8)
      try MarkdownReport.summary(results: results).write(
        toFile: out + ".md", atomically: true, encoding: .utf8)
    }
  }

  @Test("writeAll puts plot.svg, trace.json and summary.md into the results folder, atomically")
  func writeAll() throws {
    let dir = temporaryFolder("report")
    try ReportWriter.writeAll(results: SyntheticResults.make(runs: 4), folder: dir)
    let files = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(files == ["plot.svg", "summary.md", "trace.json"])
  }

  @Test("results survive a save and load unchanged, and the save leaves no temporary file")
  func roundTrip() throws {
    let dir = temporaryFolder("results")
    let results = SyntheticResults.make(runs: 5, comparisons: true)
    try ResultsFile.save(results, to: dir + "/results.json")
    let loaded = try ResultsFile.load(path: dir + "/results.json")
    #expect(try ResultsFile.encode(loaded) == ResultsFile.encode(results))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["results.json"])
  }

  @Test("a gate's JUnit report has one test case per check, failures carrying the numbers")
  func junitGate() {
    let report = GateReport(outcomes: [
      GateOutcome(
        kind: .baseline, name: "first_frame_observed deferred/cold", status: .fail,
        message: "median 300 ms vs baseline 250 ms <&>", phase: "first_frame_observed"),
      GateOutcome(
        kind: .relative, name: "r", status: .skipped, message: "skipped: no preview-only cell in cold",
        phase: "first_frame_observed"),
      GateOutcome(kind: .relative, name: "q", status: .pass, message: "ok", phase: "first_frame_observed"),
    ])
    let xml = JUnitReport.xml(gate: report)
    #expect(XMLParser(data: Data(xml.utf8)).parse())
    #expect(xml.contains("tests=\"3\" failures=\"1\" skipped=\"1\""))
    #expect(xml.contains("&lt;&amp;&gt;"))
  }
}
