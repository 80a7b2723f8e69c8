import LaunchContract
import ResultsSchema
/// A run's timeline as intervals and instants, ready to draw (trace.json, plot.svg). Internal.
struct TimelineSpans {
  /// A closed interval, ms since the run's origin.
  struct Span {
    var name: String
    var process: String
    var pid: Int32
    var start: Double
    var end: Double
    var args: [String: String]
    var lane = 0
    /// Nesting depth within the lane (0 = outermost).
    var depth = 0
  }
  /// An instant, ms since the run's origin.
  struct Instant {
    var name: String
    var process: String
    var pid: Int32
    var t: Double
    var args: [String: String]
  }

  var spans: [Span] = []
  var instants: [Instant] = []
  /// True when built from recorded events; false when only phase durations were available.
  var fromEvents: Bool

  /// Instant events whose pair makes an interval worth drawing: (from, to, span name).
  static let pairedInstants = [
    ("deferred_start.will", "deferred_start.did", "deferred_start"),
    ("shutter.tap", "photo.delivered", "shutter_to_photo"),
  ]

  /// Processes in first-seen order: (name, pid).
  var processes: [(String, Int32)] {
    var seen: [(String, Int32)] = []
    for (p, pid) in spans.map({ ($0.process, $0.pid) }) + instants.map({ ($0.process, $0.pid) })
    where !seen.contains(where: { $0.0 == p }) {
      seen.append((p, pid))
    }
    return seen
  }

  /// From recorded events: begin/end pairs (matched by name and `output` field, innermost first)
  /// become spans; an unmatched begin ends at the last event; `event`s become instants.
  /// Spans of one process are then put into lanes in which they nest properly.
  init(events: [BenchResults.TimelineEvent]) {
    fromEvents = true
    let sorted = events.enumerated().sorted {
      $0.element.t_ms != $1.element.t_ms ? $0.element.t_ms < $1.element.t_ms : $0.offset < $1.offset
    }.map(\.element)
    let lastT = sorted.last?.t_ms ?? 0
    var open: [String: [BenchResults.TimelineEvent]] = [:]
    func key(_ e: BenchResults.TimelineEvent) -> String {
      "\(e.process ?? BenchResults.TimelineEvent.defaultProcess(for: e.name))|\(e.name)|\(e.fields?["output"] ?? "")"
    }
    func label(_ e: BenchResults.TimelineEvent) -> String {
      if let output = e.fields?["output"] { return "\(e.name) (\(output))" }
      return e.name
    }
    for e in sorted {
      let process = e.process ?? BenchResults.TimelineEvent.defaultProcess(for: e.name)
      switch e.kind {
      case "begin":
        open[key(e), default: []].append(e)
      case "end":
        if let b = open[key(e)]?.popLast() {
          spans.append(
            Span(
              name: label(b), process: process, pid: b.pid, start: b.t_ms, end: e.t_ms, args: b.fields ?? [:])
          )
        } else {
          instants.append(
            Instant(
              name: "\(label(e)) (end without begin)", process: process, pid: e.pid, t: e.t_ms,
              args: e.fields ?? [:]))
        }
      default:
        instants.append(
          Instant(name: label(e), process: process, pid: e.pid, t: e.t_ms, args: e.fields ?? [:]))
      }
    }
    // Instants that the protocol pairs into an interval.
    for (from, to, name) in Self.pairedInstants {
      guard let a = sorted.first(where: { $0.name == from }),
        let b = sorted.first(where: { $0.name == to && $0.t_ms >= a.t_ms })
      else { continue }
      spans.append(
        Span(
          name: name, process: a.process ?? BenchResults.TimelineEvent.defaultProcess(for: a.name),
          pid: a.pid,
          start: a.t_ms, end: b.t_ms, args: ["from": from, "to": to]))
    }
    for (_, stack) in open {
      for b in stack {
        var args = b.fields ?? [:]
        args["unterminated"] = "true"
        spans.append(
          Span(
            name: label(b), process: b.process ?? BenchResults.TimelineEvent.defaultProcess(for: b.name),
            pid: b.pid,
            start: b.t_ms, end: Swift.max(b.t_ms, lastT), args: args))
      }
    }
    assignLanes()
  }

  /// From phase durations only: each phase is drawn from its known start when it can be derived,
  /// else from 0, each in its own lane (they do not nest). `first_frame_observed` starts at 0.
  init(phases: [String: Double]) {
    fromEvents = false
    var lane = 0
    for name in PhaseName.all + phases.keys.filter({ !PhaseName.all.contains($0) }).sorted() {
      guard let d = phases[name], d.isFinite else { continue }
      spans.append(
        Span(name: name, process: "phases (durations only)", pid: 1, start: 0, end: d, args: [:], lane: lane))
      lane += 1
    }
    if let ffo = phases[PhaseName.firstFrameObserved] {
      instants.append(
        Instant(
          name: "display.first_live_frame", process: "phases (durations only)", pid: 1, t: ffo, args: [:]))
    }
  }

  /// Greedy lanes per process: a span goes into the first lane where it nests inside the open
  /// span on top or starts after it ends, so every lane is a properly nested stack.
  mutating func assignLanes() {
    let order = spans.indices.sorted { a, b in
      if spans[a].start != spans[b].start { return spans[a].start < spans[b].start }
      return spans[a].end - spans[a].start > spans[b].end - spans[b].start
    }
    var lanes: [String: [[Double]]] = [:]
    for i in order {
      let s = spans[i]
      var stacks = lanes[s.process, default: []]
      var placed = false
      for l in stacks.indices {
        while let top = stacks[l].last, top <= s.start { stacks[l].removeLast() }
        if stacks[l].last.map({ $0 >= s.end }) ?? true {
          spans[i].depth = stacks[l].count
          stacks[l].append(s.end)
          spans[i].lane = l
          placed = true
          break
        }
      }
      if !placed {
        stacks.append([s.end])
        spans[i].lane = stacks.count - 1
      }
      lanes[s.process] = stacks
    }
  }

  /// Drawing rows of `process`: one per (lane, depth) in use, outermost first; maps a span to its row.
  func rows(of process: String) -> [String: Int] {
    let keys = Set(spans.filter { $0.process == process }.map { "\($0.lane)/\($0.depth)" })
    let sorted = keys.sorted { a, b in
      let pa = a.split(separator: "/").map { Int($0)! }
      let pb = b.split(separator: "/").map { Int($0)! }
      return pa[0] != pb[0] ? pa[0] < pb[0] : pa[1] < pb[1]
    }
    return Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
  }

  /// The last time anything happens, ms.
  var end: Double { Swift.max(spans.map(\.end).max() ?? 0, instants.map(\.t).max() ?? 0) }
}
