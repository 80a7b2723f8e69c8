import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing

/// `bench report --states` (issue 27 item 2): the thread states of each cell as distributions,
/// exact and sampled runs never pooled, incomplete runs set aside and said so.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ThreadStatesTableTests {
  /// One cell (deferred/cold) of `values.count` finished runs whose `start_running` main thread
  /// ran `values[i]` ms (nothing else), with `major_faults` = the same value, 100 events and 2 KiB
  /// of trace per ms, by `method` per run.
  static func cell(_ values: [Double], methods: [String]? = nil, incomplete: Set<Int> = []) -> BenchResults {
    var results = SyntheticResults.explicit([
      .init(config: "deferred", condition: "cold", firstFrames: values.map { _ in 300 })
    ])
    for (i, v) in values.enumerated() {
      var states = SyntheticResults.threadStates(
        phases: [PhaseName.startRunning: v], shares: [1, 0, 0, 0], method: methods?[i] ?? "tracefs",
        incomplete: incomplete.contains(i), lostEvents: incomplete.contains(i) ? 35 : 0,
        errorBoundMs: methods?[i] == "sampled" ? 4 : nil)
      states.tree[PhaseName.startRunning]?.majorFaults = Int(v)
      states.events = Int(v) * 100
      states.traceBytes = Int(v) * 2048
      results.cells[0].records[i].threadStates = states
    }
    return results
  }

  /// The line of `text` that starts with `prefix` after the line that starts with `after`.
  static func line(_ text: String, _ prefix: String, after: String) -> String? {
    let lines = text.split(separator: "\n").map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix(after) }) else { return nil }
    return lines[start...].first { $0.hasPrefix(prefix) }
  }

  @Test("each phase shows p50 (p90) of the main thread's states and the tree's figures over the cell's runs")
  func distributions() throws {
    let text = ThreadStatesTable.text(Self.cell((1...9).map(Double.init)))
    // Type-7 percentiles of 1…9: p50 5, p90 8.2.
    #expect(text.contains("deferred/cold · tracefs · 9 runs · 500 events, 10 KiB of trace per run (p50)"))
    let main = try #require(Self.line(text, PhaseName.startRunning, after: "main thread (ms)"))
    #expect(main.contains("5.0 (8.2)"), "\(main)")
    #expect(main.contains("0.0 (0.0)"), "runnable, io and sleeping are 0: \(main)")
    let tree = try #require(Self.line(text, PhaseName.startRunning, after: "process tree"))
    #expect(tree.contains("5 (8.2)"), "major_faults as counts: \(tree)")
    for field in ThreadStatesSummary.treeFields { #expect(text.contains(field)) }
    #expect(text.contains("running at first frame: camera-app (main thread) in 9 of 9 runs"))
  }

  @Test("a cell with tracefs and sampled runs is two blocks, each over its own runs, and a note says so")
  func neverPooled() throws {
    let methods = Array(repeating: "tracefs", count: 6) + Array(repeating: "sampled", count: 3)
    let text = ThreadStatesTable.text(Self.cell([1, 2, 3, 4, 5, 6, 100, 200, 300], methods: methods))
    let exact = try #require(
      Self.line(text, PhaseName.startRunning, after: "deferred/cold · tracefs · 6 runs"))
    #expect(exact.contains("3.5 (5.5)"), "\(exact)")
    let sampled = try #require(
      Self.line(text, PhaseName.startRunning, after: "deferred/cold · sampled · 3 runs"))
    #expect(sampled.contains("200 (280)"), "\(sampled)")
    #expect(text.contains("deferred/cold has tracefs and sampled runs: shown as two blocks, never pooled"))
    #expect(text.contains("error_bound_ms (largest: deferred/cold 4.00 ms)"))
  }

  @Test("incomplete runs are counted in a note and left out of the figures")
  func incompleteSetAside() throws {
    let text = ThreadStatesTable.text(Self.cell([1, 2, 3, 4, 5, 6, 1000, 1000], incomplete: [6, 7]))
    #expect(text.contains("deferred/cold · tracefs · 6 runs"))
    let main = try #require(Self.line(text, PhaseName.startRunning, after: "main thread (ms)"))
    #expect(main.contains("3.5 (5.5)"), "\(main)")
    #expect(text.contains("- deferred/cold: 2 tracefs runs incomplete (70 events lost"))
  }

  @Test("a cell whose every run is incomplete says so instead of showing figures")
  func allIncomplete() {
    let text = ThreadStatesTable.text(Self.cell([1, 2], incomplete: [0, 1]))
    #expect(text.contains("deferred/cold · tracefs · no complete run\n"))
    #expect(!text.contains("main thread (ms)"))
    #expect(text.contains("- deferred/cold: 2 tracefs runs incomplete (70 events lost"))
    #expect(!SVGPlot.svg(results: Self.cell([1, 2], incomplete: [0, 1])).contains("Main thread states"))
  }

  @Test("failed runs are not in the figures")
  func failedRunsLeftOut() throws {
    var results = Self.cell([1, 2, 3, 1000])
    results.cells[0].records[3].ok = false
    let text = ThreadStatesTable.text(results)
    #expect(text.contains("deferred/cold · tracefs · 3 runs"))
    #expect(
      try #require(Self.line(text, PhaseName.startRunning, after: "main thread (ms)")).contains("2.0 (2.8)"))
  }

  @Test("results without thread states get one line saying how to get them")
  func noThreadStates() {
    let results = SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 3)
    #expect(!ThreadStatesSummary.hasThreadStates(results))
    #expect(ThreadStatesTable.text(results) == ThreadStatesTable.noThreadStates + "\n")
    #expect(ThreadStatesTable.noThreadStates.contains("--thread-states on"))
  }

  @Test(
    "bench's threads and the display server get a block each after the app's tree, and none where no run has them"
  )
  func benchAndDisplayServer() throws {
    var results = Self.withDisplayServer(Self.cell([1, 2, 3]))
    results.settings.display = "x11"
    let title = "display server (Xvfb)"
    let text = ThreadStatesTable.text(results)
    let tree = try #require(text.range(of: "process tree"))
    let bench = try #require(text.range(of: "bench's threads"))
    let server = try #require(text.range(of: title))
    #expect(tree.lowerBound < bench.lowerBound && bench.lowerBound < server.lowerBound)
    #expect(!text.contains("X server"), "the block is the display server's, named: \(text)")
    // Type-7 percentiles of 10, 20, 30: p50 20, p90 28.
    let benchLine = try #require(Self.line(text, PhaseName.startRunning, after: "bench's threads"))
    #expect(benchLine.contains("20.0 (28.0)"), "\(benchLine)")
    let serverLine = try #require(Self.line(text, PhaseName.startRunning, after: title))
    #expect(serverLine.contains("2 (2.8)"), "voluntary switches as counts: \(serverLine)")
    let plain = Self.cell([1, 2, 3])
    #expect(!ThreadStatesTable.text(plain).contains("bench's threads"))
    #expect(!ThreadStatesTable.text(plain).contains("display server"))
  }

  @Test(
    "the display server's block names it from settings.display: Xvfb, the X server's name, sway, cage, a running compositor"
  )
  func displayServerNamed() throws {
    let named: [(display: String?, vendor: String?, title: String)] = [
      ("x11", nil, "display server (Xvfb)"),
      ("x11::0", nil, "display server (X server :0)"),
      ("wayland", nil, "display server (sway)"),
      ("wayland-cage", nil, "display server (cage)"),
      ("wayland:wayland-1", "sway 1.7", "display server (sway)"),
      ("wayland:wayland-1", "Wayland compositor", "display server (Wayland compositor)"),
      (nil, nil, "display server"),
    ]
    for (display, vendor, title) in named {
      var results = Self.withDisplayServer(Self.cell([1, 2, 3]))
      results.settings.display = display
      results.settings.displayServer = vendor.map {
        BenchResults.DisplayServerInfo(
          name: "/run/wayland-1", vendor: $0, release: 0, started: false, screen: nil, realtime: nil,
          sharedMemory: true)
      }
      let text = ThreadStatesTable.text(results)
      let line = try #require(
        text.split(separator: "\n").first { $0.hasPrefix("display server") }, "\(display ?? "none"): \(text)")
      #expect(line.hasPrefix(title + "  "), "\(display ?? "none"): \(line)")
    }
  }

  /// `results` with `bench` and `display_server` figures in `start_running` for runs 0–2: 10, 20
  /// and 30 ms of CPU, 1, 2 and 3 voluntary switches.
  static func withDisplayServer(_ results: BenchResults) -> BenchResults {
    var results = results
    for i in 0..<3 {
      let figures = BenchResults.TreeStates(
        cpuMs: Double(10 * (i + 1)), runqueueMs: 0, ioMs: 0, majorFaults: 0, minorFaults: 0,
        voluntarySwitches: i + 1, involuntarySwitches: 0)
      results.cells[0].records[i].threadStates?.bench = [PhaseName.startRunning: figures]
      results.cells[0].records[i].threadStates?.displayServer = [PhaseName.startRunning: figures]
    }
    return results
  }

  @Test("time before switches the trace lacks (unseen_ms) is named in a note when a run has 1 ms or more")
  func unseenSwitchIns() {
    var results = Self.cell([1, 2, 3])
    for i in 0..<3 { results.cells[0].records[i].threadStates?.unseenMs = [0.2, 0.4, 0.6][i] }
    #expect(!ThreadStatesTable.text(results).contains("unseen_ms"))
    for i in 0..<3 { results.cells[0].records[i].threadStates?.unseenMs = [2, 30, 400][i] }
    let text = ThreadStatesTable.text(results)
    #expect(text.contains("unseen_ms: deferred/cold 30.0 ms p50, 400.0 ms max"), "\(text)")
    #expect(text.contains("--thread-states sampled"))
  }
}
