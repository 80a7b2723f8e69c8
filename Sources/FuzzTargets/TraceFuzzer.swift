import Foundation
import PhaseTrace
import ResultsSchema
import RunAnalysis

/// Trace lines, as bench reads what an app under test writes: a `TraceTail` follows the file in
/// two pieces (split where the first byte says), and must agree with `TraceReader.parse(text:)`
/// on the same bytes; the events then go where bench sends them (phases, counts, the timeline).
enum TraceFuzzer {
  /// Small, so that the over-long-line path is reached by small inputs.
  static let reader = TraceReader(maxLineBytes: 200)

  static func run(_ data: [UInt8]) -> [String] {
    var problems: [String] = []
    let path = FuzzScratch.path("trace.jsonl")
    FuzzScratch.write([], to: path)
    let tail = TraceTail(path: path, reader: reader)
    let split = data.isEmpty ? 0 : Int(data[0]) * data.count / 256
    FuzzScratch.write(data[..<split], to: path, append: true)
    let first = Array(tail.poll())
    FuzzScratch.write(data[split...], to: path, append: true)
    let tailed = tail.finish()
    if tailed.events.prefix(first.count).elementsEqual(first) == false {
      problems.append("finish() changed the events poll() returned before")
    }
    if let text = String(validating: data, as: UTF8.self) {
      let parsed = reader.parse(text: text)
      if parsed.events != tailed.events || parsed.malformedLines != tailed.malformedLines
        || parsed.problems != tailed.problems
      {
        problems.append(
          "the tail and parse(text:) disagree: \(tailed.events.count) vs \(parsed.events.count) events, "
            + "\(tailed.malformedLines) vs \(parsed.malformedLines) malformed, \(tailed.problems) vs \(parsed.problems)"
        )
      }
    }
    problems += consume(tailed.events)
    return problems
  }

  /// What bench does with one run's events: phases and counts from several starts, the timeline.
  static func consume(_ events: [PhaseEvent]) -> [String] {
    var problems: [String] = []
    let stamps = events.map(\.ts).sorted()
    let starts = [0, stamps.first ?? 0, stamps.isEmpty ? 0 : stamps[stamps.count / 2]]
    for start in starts {
      for relock in [false, true] {
        let phases = PhaseExtractor.phases(from: events, start: start, relock: relock)
        for (name, ms) in phases where !(ms.isFinite && ms >= 0) {
          problems.append("phase \(name) is \(ms) ms")
        }
        let counts = PhaseExtractor.counts(from: events, start: start)
        if counts.values.contains(where: { $0 < 0 || $0 > events.count }) {
          problems.append("counts \(counts) for \(events.count) events")
        }
      }
      let timeline = events.map { BenchResults.TimelineEvent($0, originNs: start) }
      if let bad = timeline.first(where: { !$0.t_ms.isFinite }) {
        problems.append("timeline event \(bad.name) at \(bad.t_ms) ms")
      }
      if (try? JSONEncoder().encode(timeline)) == nil { problems.append("the timeline cannot be encoded") }
    }
    return problems
  }
}
