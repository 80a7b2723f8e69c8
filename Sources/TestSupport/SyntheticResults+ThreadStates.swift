import ResultsSchema

extension SyntheticResults {
  /// A `thread_states` record (issue 27) for a run whose phases are `phases` (ms), as the
  /// reports' tests write them: the main thread of each phase `running`, `runnable`, `io`,
  /// `sleeping` in the shares `shares` (summing to the phase when the shares sum to 1), the tree's
  /// CPU time 1.2 × running, run-queue wait 1.5 × runnable, `io_ms` = io, and counts that grow
  /// with the phase (a major fault per 10 ms, a minor one per ms, a voluntary switch per 5 ms, an
  /// involuntary one per 20 ms). `running` names the thread on a CPU at the first frame.
  package static func threadStates(
    phases: [String: Double], shares: [Double] = [0.5, 0.2, 0.1, 0.2], method: String = "tracefs",
    incomplete: Bool = false, lostEvents: Int = 0, errorBoundMs: Double? = nil,
    running: BenchResults.ThreadIdentity? = .init(pid: 4242, tid: 4242, name: "camera-app")
  ) -> BenchResults.ThreadStatesRecord {
    var main: [String: BenchResults.MainThreadStates] = [:]
    var tree: [String: BenchResults.TreeStates] = [:]
    for (phase, d) in phases {
      let s = BenchResults.MainThreadStates(
        running: d * shares[0], runnable: d * shares[1], io: d * shares[2], sleeping: d * shares[3])
      main[phase] = s
      tree[phase] = .init(
        cpuMs: s.running * 1.2, runqueueMs: s.runnable * 1.5, ioMs: s.io, majorFaults: Int(d / 10),
        minorFaults: Int(d), voluntarySwitches: Int(d / 5), involuntarySwitches: Int(d / 20))
    }
    return .init(
      method: method, lostEvents: lostEvents, incomplete: incomplete, errorBoundMs: errorBoundMs,
      events: 1000, traceBytes: method == "tracefs" ? 64_000 : nil, main: main, tree: tree,
      runningAtFirstFrame: running)
  }

  /// `results` with every finished run given `threadStates(phases:)` of its own phases
  /// (`method` for each), the records of failed runs left without.
  package static func withThreadStates(_ results: BenchResults, method: String = "tracefs") -> BenchResults {
    var out = results
    for c in out.cells.indices {
      for r in out.cells[c].records.indices where out.cells[c].records[r].ok {
        out.cells[c].records[r].threadStates = threadStates(
          phases: out.cells[c].records[r].phases, method: method)
      }
    }
    return out
  }
}
