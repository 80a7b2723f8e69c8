import Foundation
import LaunchContract
import ResultsSchema
import RunAnalysis

/// Chrome / Perfetto trace-event JSON (the "JSON Array/Object Format" that ui.perfetto.dev and
/// chrome://tracing open) of one median run per cell.
///
/// Every cell gets its own group of processes (pid = 100·(cell index + 1) + k), named
/// `deferred/cold run 7 · app` and so on through `process_name` metadata, so deferred and eager
/// runs line up from t = 0 (the run's origin: spawn, or unlock for relock). Intervals are complete
/// events (`"ph": "X"`, `ts` and `dur` in microseconds) placed on threads (lanes) in which they nest
/// properly; instants are `"ph": "i"`; the first live frame is a process-scoped instant on the
/// probe's track and on a `bench` track beside the `first_frame_observed` slice. A run with
/// `thread_states` (issue 27) has, on that bench process, one track per phase with the main
/// thread's running, runnable, io and sleeping time as slices (`stateEvents`).
/// `displayTimeUnit` is `ms`.
public enum TraceExport {
  /// The trace JSON text.
  public static func json(results: BenchResults) -> String {
    let doc: [String: Any] = [
      "traceEvents": events(results: results), "displayTimeUnit": "ms",
      "otherData": [
        "tool": "\(results.tool.name) \(results.tool.version)", "camera": results.settings.camera,
        "note":
          "one median run per cell (closest to the cell's median first_frame_observed); t = 0 at the run's origin",
      ],
    ]
    let data =
      (try? JSONSerialization.data(withJSONObject: doc, options: [.sortedKeys, .withoutEscapingSlashes]))
      ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// The `traceEvents` array.
  static func events(results: BenchResults) -> [[String: Any]] {
    var out: [[String: Any]] = []
    for (c, cell) in results.orderedCells.enumerated() {
      guard let run = MedianRun.pick(cell) else { continue }
      let key = CellKey(cell)
      let base = 100 * (c + 1)
      let spans = run.timeline.map { TimelineSpans(events: $0) } ?? TimelineSpans(phases: run.phases)
      let prefix = "\(key.name) run \(run.run)"
      // The bench track: the headline phase as a slice from the origin, and the first live frame.
      let benchPid = base
      out.append(meta("process_name", pid: benchPid, tid: 0, name: "\(prefix) · first_frame_observed"))
      out.append([
        "ph": "M", "name": "process_sort_index", "pid": benchPid, "tid": 0, "args": ["sort_index": base],
      ])
      out.append(meta("thread_name", pid: benchPid, tid: 1, name: "phase"))
      if let ffo = run.phases[PhaseName.firstFrameObserved] {
        out.append(
          slice(
            PhaseName.firstFrameObserved, pid: benchPid, tid: 1, start: 0, end: ffo, cat: "phase",
            args: ["ms": NumberFormat.ms(ffo)]))
        out.append(instant("first live frame", pid: benchPid, tid: 1, t: ffo, scope: "p"))
      }
      out += stateEvents(run: run, relock: cell.condition == LaunchCondition.relock.rawValue, pid: benchPid)
      for (k, (process, _)) in spans.processes.enumerated() {
        let pid = base + k + 1
        out.append(meta("process_name", pid: pid, tid: 0, name: "\(prefix) · \(process)"))
        out.append([
          "ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": ["sort_index": pid],
        ])
        let lanes = Set(spans.spans.filter { $0.process == process }.map(\.lane)).union([0])
        for lane in lanes.sorted() {
          out.append(
            meta(
              "thread_name", pid: pid, tid: lane + 1,
              name: lane == 0 ? process : "\(process) lane \(lane + 1)"))
        }
        for s in spans.spans where s.process == process {
          out.append(
            slice(s.name, pid: pid, tid: s.lane + 1, start: s.start, end: s.end, cat: process, args: s.args))
        }
        for i in spans.instants where i.process == process {
          let scope = i.name == "display.first_live_frame" ? "p" : "t"
          out.append(instant(i.name, pid: pid, tid: 1, t: i.t, scope: scope, args: i.args))
        }
      }
    }
    return out
  }

  static func us(_ ms: Double) -> Double { (ms * 1000).rounded() }

  static func meta(_ what: String, pid: Int, tid: Int, name: String) -> [String: Any] {
    ["ph": "M", "name": what, "pid": pid, "tid": tid, "args": ["name": name]]
  }

  static func slice(
    _ name: String, pid: Int, tid: Int, start: Double, end: Double, cat: String, args: [String: String]
  )
    -> [String: Any]
  {
    [
      "ph": "X", "name": name, "cat": cat, "pid": pid, "tid": tid, "ts": us(start),
      "dur": Swift.max(0, us(end) - us(start)),
      "args": args,
    ]
  }

  static func instant(
    _ name: String, pid: Int, tid: Int, t: Double, scope: String, args: [String: String] = [:]
  )
    -> [String: Any]
  {
    [
      "ph": "i", "name": name, "cat": "instant", "pid": pid, "tid": tid, "ts": us(t), "s": scope,
      "args": args,
    ]
  }
}
