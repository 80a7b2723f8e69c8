import Foundation
import HistoryAnalysis
import RunAnalysis
import SystemCalls

/// What `bench bisect` writes to `OUT/bisect.json`, for the nightly and other tools.
struct BisectRecord: Codable {
  /// `culprit`, `nothing-regressed`, `inconclusive`, `untestable`, `good-failed` or `interrupted`.
  var outcome: String
  /// The culprit's probe (its shift against GOOD), when one was named.
  var culprit: BisectProbe?
  /// The commits the first slower one is among, when the bisect could not narrow them to one.
  var range: [String]
  /// GOOD's and BAD's commits.
  var good: String
  /// BAD's commit.
  var bad: String
  /// `CONDITION/CONFIG`.
  var cell: String
  /// The phase bisected.
  var phase: String
  /// How many commits the range held (after GOOD, up to BAD, first parents).
  var commits: Int
  /// Every probe, in the order measured.
  var probes: [BisectProbe]
  /// How many times camera-app was compiled.
  var builds: Int
  /// How many revisions were measured: GOOD and each probed commit.
  var revisionsMeasured: Int
  /// Wall-clock seconds the bisect took, builds included.
  var seconds: Double
  /// The sentence the report ends with.
  var summary: String
}

extension Bisection {
  /// Prints the report on `output`, writes `bisect.json`, and returns the exit status.
  func report(
    _ end: BisectEnd, search: BisectSearch, output: inout some TextOutputStream,
    errors: inout some TextOutputStream
  ) -> Int32 {
    let seconds = (ContinuousClock.now - started) / .seconds(1)
    let builds = compiled.withLock { $0 }
    var record = BisectRecord(
      outcome: "", range: [], good: good.commit, bad: bad.commit,
      cell: "\(options.condition)/\(options.config)",
      phase: options.phase, commits: range.count, probes: probes, builds: builds,
      revisionsMeasured: 1 + Set(probes.filter { $0.verdict != .untestable }.map(\.commit)).count,
      seconds: seconds, summary: "")
    var text =
      "bisect \(options.condition)/\(options.config) \(options.phase): GOOD \(good.shortCommit) \(goodSubject)\n"
      + "  \(range.count) commit\(range.count == 1 ? "" : "s") up to BAD \(bad.shortCommit) (first parents)\n"
    let status: Int32
    (record.outcome, record.summary, status) = conclusion(end, search: search, record: &record)
    text += record.summary + "\n"
    text +=
      "evidence (each commit against GOOD \(good.shortCommit), interleaved; ratio = its median / GOOD's):\n"
    for probe in probes { text += "  " + probe.line + "\n" }
    if probes.isEmpty { text += "  (no probe finished)\n" }
    text +=
      "builds: \(builds) compiled, \(record.revisionsMeasured) revisions measured (GOOD and \(record.revisionsMeasured - 1) commits), \(String(format: "%.1f", seconds / 60)) min\n"
    text += "sessions: \(out)\n"
    output.write(text)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    if let data = try? encoder.encode(record) {
      do throws(Errno) {
        try FileSystem.replaceAtomically(Array(data) + [10], atPath: out + "/bisect.json")
      } catch {
        errors.write("bench bisect: cannot write \(out)/bisect.json: \(error.message)\n")
      }
    }
    return status
  }

  /// The outcome's name, its sentence and the exit status; fills `record`'s culprit and range.
  func conclusion(_ end: BisectEnd, search: BisectSearch, record: inout BisectRecord)
    -> (String, String, Int32)
  {
    // The commits still open; none once BAD read not slower (the last good one is BAD then).
    let open =
      search.lastGood < search.firstBad ? range[(search.lastGood + 1)...search.firstBad].map(\.commit) : []
    switch end {
    case .finished(.culprit(let index)):
      let culprit = probes.last { $0.commit == range[index].commit }
      record.culprit = culprit
      let shift = culprit.map { "\n  shift: \($0.shift)" } ?? ""
      return ("culprit", "culprit: \(range[index].commit) \(range[index].subject)\(shift)", 0)
    case .finished(.nothingRegressed), .finished(.probe):
      let last = probes.last { $0.commit == bad.commit }
      return (
        "nothing-regressed",
        "nothing regressed: BAD \(bad.shortCommit) is not slower than GOOD\(last.map { " (\($0.numbers))" } ?? "")",
        1
      )
    case .finished(.untestable(let indices)):
      record.range = range[indices].map(\.commit)
      return (
        "untestable",
        "could not narrow: only untestable commits left; the first slower commit is one of \(record.range.map { String($0.prefix(12)) }.joined(separator: " "))",
        1
      )
    case .inconclusive(let probe):
      record.range = open
      return (
        "inconclusive",
        "could not narrow: \(probe.commit.prefix(12)) stayed undecided with \(probe.runs) runs per side (--max-runs \(options.maxRuns)): not slower beyond \(NumberFormat.percent(options.threshold)) at α = 0.01, nor shown within it (\(probe.numbers)); the first slower commit is one of \(open.map { String($0.prefix(12)) }.joined(separator: " "))",
        3
      )
    case .goodFailed(let why):
      return ("good-failed", "cannot bisect: \(why)", 1)
    case .interrupted, .searching:
      record.range = open
      return ("interrupted", "interrupted: \(probes.count) probes kept (in the history and bisect.json)", 130)
    }
  }
}
