import LaunchContract
import ResultsSchema
import RunAnalysis
import Statistics

/// The thread states of a results file's runs (`thread_states`, issue 27), grouped the way every
/// report shows them: one group per cell and method, so that exact (`tracefs`) and sampled
/// (`/proc`) runs are never pooled — a cell with both has two groups. Only finished runs count;
/// incomplete runs (lost events, a trace that started late or ended early) are counted and set
/// aside, never summed with complete ones. Used by `bench report --states`, `plot.svg` and
/// `trace.json`.
public struct ThreadStatesSummary: Sendable {
  /// The main thread's states, by their JSON names, in the order the reports stack them.
  public static let mainStates = ["running", "runnable", "io", "sleeping"]
  /// The process tree's figures, by their JSON names: the first three in ms, the rest counts.
  public static let treeFields = [
    "cpu_ms", "runqueue_ms", "io_ms", "major_faults", "minor_faults", "voluntary_switches",
    "involuntary_switches",
  ]

  /// One cell's runs of one method.
  public struct Group: Sendable {
    /// The cell's name (`deferred/cold`, `@camera` appended for a camera other than `synthetic`).
    public var cell: String
    /// `tracefs` or `sampled`.
    public var method: String
    /// Finished, complete runs: the figures are over these.
    public var runs: Int
    /// Finished runs of this method whose breakdown is incomplete: set aside.
    public var incomplete: Int
    /// Events lost over the incomplete runs (their `lost_events`, summed).
    public var lostEvents: Int
    /// `sampled`: the largest `error_bound_ms` of the runs in the figures, ms.
    public var errorBoundMs: Double?
    /// Phases with a figure, in the table's order (`PhaseName.all`, the device phases, the rest).
    public var phases: [String]
    /// Phase → main-thread state (`mainStates`) → its values over the runs, sorted, ms.
    public var main: [String: [String: [Double]]]
    /// Phase → tree figure (`treeFields`) → its values over the runs, sorted.
    public var tree: [String: [String: [Double]]]
    /// Bench's own threads: phase → figure (`treeFields`) → its values over the runs that have
    /// them, sorted; empty when no run has `bench`.
    public var bench: [String: [String: [Double]]] = [:]
    /// The display server's threads (an X server, a Wayland compositor), as `bench`; empty when
    /// no run has `display_server` (shared memory).
    public var displayServer: [String: [String: [Double]]] = [:]
    /// Each complete run's `events` (scheduler events, or samples for `sampled`), sorted.
    public var events: [Double]
    /// Each complete run's `trace_bytes` where recorded (`tracefs`), sorted.
    public var traceBytes: [Double]
    /// Each complete run's `unseen_ms` where recorded (`tracefs`), sorted: time counted in
    /// another state before a switch out whose switch in the trace lacks.
    public var unseenMs: [Double] = []
    /// The thread most often running at the first frame (its `comm`, `(main thread)` appended
    /// when it was the process's first thread) and in how many runs; nil when no run says.
    public var runningAtFirstFrame: (thread: String, runs: Int, of: Int)?
  }

  /// The groups, in the cells' usual order, `tracefs` before `sampled` within a cell.
  public var groups: [Group]
  /// Cells with runs of both methods, by name: each such cell has two groups.
  public var mixedCells: [String]
  /// Which display server the `display_server` figures are of, from the benchmark's
  /// `settings.display` (``displayServerName(_:)``): `Xvfb`, `sway`, …; nil when it does not say.
  public var displayServerName: String?

  /// Whether any run of the results has thread states (complete or not).
  public static func hasThreadStates(_ results: BenchResults) -> Bool {
    results.cells.contains { $0.records.contains { $0.threadStates != nil } }
  }

  /// Groups every finished run's `thread_states` of `results`.
  public init(results: BenchResults) {
    groups = []
    mixedCells = []
    displayServerName = Self.displayServerName(results.settings)
    for cell in results.orderedCells {
      let records = cell.records.filter(\.ok).compactMap(\.threadStates)
      let methods = Set(records.map(\.method)).sorted {
        ($0 == "tracefs" ? 0 : 1, $0) < ($1 == "tracefs" ? 0 : 1, $1)
      }
      if methods.count > 1 { mixedCells.append(CellKey(cell).name) }
      for method in methods {
        groups.append(Self.group(CellKey(cell).name, method: method, records.filter { $0.method == method }))
      }
    }
  }

  /// The group of one cell's records of one method.
  static func group(_ cell: String, method: String, _ all: [BenchResults.ThreadStatesRecord]) -> Group {
    let complete = all.filter { !$0.incomplete }
    let set = all.filter(\.incomplete)
    var main: [String: [String: [Double]]] = [:]
    for r in complete {
      for (phase, s) in r.main {
        for (state, v) in zip(mainStates, [s.running, s.runnable, s.io, s.sleeping]) {
          main[phase, default: [:]][state, default: []].append(v)
        }
      }
    }
    main = main.mapValues { $0.mapValues { $0.sorted() } }
    let tree = distributions(complete.map(\.tree))
    let bench = distributions(complete.compactMap(\.bench))
    let displayServer = distributions(complete.compactMap(\.displayServer))
    let names = Set(main.keys).union(tree.keys).union(bench.keys).union(displayServer.keys)
    var threads: [String: Int] = [:]
    for r in complete {
      guard let t = r.runningAtFirstFrame else { continue }
      threads[t.name + (t.tid == t.pid ? " (main thread)" : ""), default: 0] += 1
    }
    let said = threads.values.reduce(0, +)
    let top = threads.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }
    var group = Group(
      cell: cell, method: method, runs: complete.count, incomplete: set.count,
      lostEvents: set.map(\.lostEvents).reduce(0, +), errorBoundMs: complete.compactMap(\.errorBoundMs).max(),
      phases: ordered(names), main: main, tree: tree, events: complete.map { Double($0.events) }.sorted(),
      traceBytes: complete.compactMap { $0.traceBytes.map(Double.init) }.sorted(),
      runningAtFirstFrame: top.map { ($0.key, $0.value, said) })
    group.bench = bench
    group.displayServer = displayServer
    group.unseenMs = complete.compactMap(\.unseenMs).sorted()
    return group
  }

  /// Phase → figure (`treeFields`) → its values over `records` (each a phase → totals), sorted.
  static func distributions(_ records: [[String: BenchResults.TreeStates]]) -> [String: [String: [Double]]] {
    var out: [String: [String: [Double]]] = [:]
    for record in records {
      for (phase, t) in record {
        let values = [
          t.cpuMs, t.runqueueMs, t.ioMs, Double(t.majorFaults), Double(t.minorFaults),
          Double(t.voluntarySwitches), Double(t.involuntarySwitches),
        ]
        for (field, v) in zip(treeFields, values) { out[phase, default: [:]][field, default: []].append(v) }
      }
    }
    return out.mapValues { $0.mapValues { $0.sorted() } }
  }
}

extension ThreadStatesSummary {
  /// Phases with a main-thread figure in any group, in the table's order.
  public var mainPhases: [String] { Self.ordered(Set(groups.flatMap(\.main.keys))) }

  /// `names` in the table's order: `PhaseName.all`, the device phases, then the rest by name.
  static func ordered(_ names: Set<String>) -> [String] {
    let known = (PhaseName.all + PhaseName.device).filter { names.contains($0) }
    return known + names.subtracting(known).sorted()
  }
}

extension ThreadStatesSummary.Group {
  /// The median of each main-thread state of `phase` (in `mainStates` order), ms; nil when no
  /// complete run has the phase.
  public func mainMedians(_ phase: String) -> [Double]? {
    guard let states = main[phase] else { return nil }
    return ThreadStatesSummary.mainStates.map { Statistics.percentile(sorted: states[$0] ?? [], 0.5) }
  }
}
