import PhaseTrace
import ResultsSchema
import RunAnalysis

extension TraceExport {
  /// The thread id of the first thread-states track on a cell's bench process (the phase track
  /// is 1); each phase with states gets its own track from here on.
  static let firstStatesTid = 2

  /// The main thread's states of `run` (`thread_states`, issue 27) as slices on the bench process
  /// `pid`, next to its phase slice: one track per phase (`main thread · start_running`), on which
  /// the phase's running, runnable, io and sleeping time are consecutive slices in that order,
  /// from the phase's start (the record holds each state's total per phase, not when it
  /// happened). Phases are placed from the run's timeline as `PhaseExtractor` measures them; a
  /// run without a timeline has its phases from t = 0, as the durations-only trace draws them.
  /// Nothing when the run has no thread states.
  static func stateEvents(run: BenchResults.RunRecord, relock: Bool, pid: Int) -> [[String: Any]] {
    guard let states = run.threadStates else { return [] }
    let starts = phaseStarts(run: run, relock: relock)
    var out: [[String: Any]] = []
    let phases = ThreadStatesSummary.ordered(Set(states.main.keys))
    let qualifier = states.method + (states.incomplete ? ", incomplete" : "")
    for (i, phase) in phases.enumerated() {
      guard let s = states.main[phase] else { continue }
      let tid = firstStatesTid + i
      out.append(meta("thread_name", pid: pid, tid: tid, name: "main thread · \(phase) (\(qualifier))"))
      var at = starts[phase] ?? 0
      for (state, ms) in zip(ThreadStatesSummary.mainStates, [s.running, s.runnable, s.io, s.sleeping])
      where ms > 0 {
        out.append(
          slice(
            state, pid: pid, tid: tid, start: at, end: at + ms, cat: "thread_state",
            args: ["phase": phase, "ms": NumberFormat.ms(ms), "method": states.method]))
        at += ms
      }
    }
    return out
  }

  /// Each phase's start in `run`, ms since the run's origin, from its timeline's events by the
  /// rules that measured the phases (`PhaseExtractor.intervals`); empty without a timeline. The
  /// device phases come from the kernel's events, else the preload library's when the timeline
  /// has any, else the app's own.
  static func phaseStarts(run: BenchResults.RunRecord, relock: Bool) -> [String: Double] {
    guard let timeline = run.timeline else { return [:] }
    let origin: UInt64 = 1 << 40  // ns; t = 0, far enough above 0 for events before the origin
    let events = timeline.map { e in
      PhaseEvent(
        ts: UInt64(Swift.max(0, (Double(origin) + e.t_ms * 1_000_000).rounded())), name: e.name,
        kind: PhaseEventKind(rawValue: e.kind) ?? .event, pid: e.pid,
        fields: (e.fields ?? [:]).mapValues { PhaseFieldValue.string($0) })
    }
    let preload = "preload"
    let fallback =
      timeline.contains { $0.fields?[PhaseExtractor.sourceField] == preload }
      ? preload : PhaseExtractor.appSource
    return PhaseExtractor.intervals(
      from: events, start: origin, relock: relock, devicePriority: ["kernel", fallback]
    ).intervals.mapValues { Double($0.start - origin) / 1_000_000 }
  }
}
