import ResultsSchema
import ThreadStates

/// Scheduler trace text, as bench reads a tracefs instance's `trace` file. The kernel writes it,
/// but the app under test names its threads: a comm is 15 bytes of its choosing — spaces, keys
/// (` pid=`), the event marker, even a newline, which splits the kernel's line in two. The whole
/// text must parse as its lines do one by one; its events then build the timeline of the first
/// event's task (the app's bench and display server are its thread group), whose breakdown over the
/// events' span has finite figures, none negative, and main-thread states that fit in the span.
enum SchedFuzzer {
  static func run(_ data: [UInt8]) -> [String] {
    var problems: [String] = []
    let whole = SchedTraceParser.parse(String(decoding: data, as: UTF8.self))
    var events: [SchedEvent] = []
    var malformed = 0
    for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      let one = SchedTraceParser.parse(String(decoding: line, as: UTF8.self))
      events += one.events
      malformed += one.malformedLines
    }
    if whole.events != events || whole.malformedLines != malformed {
      problems.append(
        "the whole text and its lines disagree: \(whole.events.count) vs \(events.count) events, "
          + "\(whole.malformedLines) vs \(malformed) malformed")
    }
    guard let first = whole.events.first, let start = whole.events.map(\.ts).min(),
      let last = whole.events.map(\.ts).max()
    else { return problems }
    let window = PhaseInterval(start: start, end: last + 1)
    let timeline = SchedTimeline(
      events: whole.events, root: first.taskTid, watched: Set([first.tgid ?? first.taskTid]))
    let record = ThreadStatesBreakdown.exact(
      timeline: timeline, phases: ["window": window], samples: [], events: whole.events.count,
      totals: .init(lostEvents: 0, traceBytes: data.count, malformedLines: whole.malformedLines),
      firstFrame: last)
    let spanMs = Double(window.end - window.start) / 1e6
    if let main = record.main["window"] {
      let states = [main.running, main.runnable, main.io, main.sleeping]
      if !states.allSatisfy({ $0.isFinite && $0 >= 0 }) || main.total > spanMs + 1e-3 {
        problems.append("main-thread states \(states) do not fit the \(spanMs) ms span")
      }
    }
    let trees = [record.tree["window"], record.bench?["window"]].compactMap { $0 }
    for tree in trees where ![tree.cpuMs, tree.runqueueMs, tree.ioMs].allSatisfy({ $0.isFinite && $0 >= 0 }) {
      problems.append("tree figures not finite or negative: \(tree)")
    }
    if let unseen = record.unseenMs, !(unseen.isFinite && unseen >= 0) {
      problems.append("unseen_ms \(unseen)")
    }
    return problems
  }
}
