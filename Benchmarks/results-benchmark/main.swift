import BenchKit
import CommandLineKit
import Foundation
import Gates
import LaunchContract
import ResultsSchema
import Sampling
import Subprocess
import Synchronization
import SystemCalls
import TestSupport

// `results-benchmark`: what bench's bookkeeping costs, without launching anything.
//
//   results-benchmark bookkeeping [--runs 10,100,1000] [--budget S]
//       A benchmark session over a runner that answers at once with a realistic record
//       (TestSupport's SyntheticResults), one condition × two configurations, in a temporary
//       results folder. The cost of run k is the time from the runner's answer for run k to its
//       next call: everything the session does per finished run (journal, progress, cells).
//       Prints, per runs-per-cell setting, the median, p90 and max of that cost over all runs and
//       over the last tenth of them (flat means the last tenth costs what the first did), and the
//       final save. --budget stops a setting after S seconds (for code whose cost grows).
//   results-benchmark make FILE [--runs-per-cell N]
//       Writes a synthetic results file: 8 cells (deferred, eager × 4 conditions) × N runs with
//       timelines (N = 1000: 8000 runs, about 27 MB), for timing compare/gate/baseline/report.

/// Answers every run at once with a synthetic record and notes when it answered and was called.
final class InstantRunner: RunPerforming {
  let state = Mutex<(rng: SplitMix64, answeredAt: UInt64?, costs: [UInt64])>((SplitMix64(seed: 7), nil, []))

  /// The bookkeeping cost of each run but the last, ns.
  var costs: [UInt64] { state.withLock { $0.costs } }

  func answer(config: BenchConfiguration, condition: String, number: Int) -> RunOutcome {
    state.withLock { s in
      let now = MonotonicClock.now()
      if let answered = s.answeredAt { s.costs.append(now - answered) }
      let median = SyntheticResults.medians[config.name]?[condition] ?? 300
      let first = SyntheticResults.launchTimes(1, median: median, rng: &s.rng)[0]
      let record = SyntheticResults.record(
        run: number, config: config.name, condition: condition, firstFrame: first, rng: &s.rng)
      s.answeredAt = MonotonicClock.now()
      return RunOutcome(record: record, realtime: false)
    }
  }

  func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    interrupted() ? nil : answer(config: config, condition: condition.rawValue, number: number)
  }

  func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  ) -> Result<any RelockRunning, RunnerError> {
    .failure(RunnerError(.spawnFailed, "the instant runner measures launch conditions only"))
  }
}

struct LiteRecord: Decodable {
  var run: Int
  var ok: Bool
  var error: String?
  var phases: [String: Double]
  var counts: [String: Int]
}
struct LiteCell: Decodable {
  var config: String
  var condition: String
  var phases: [String: BenchResults.PhaseSummary]
  var records: [LiteRecord]
}
struct Lite: Decodable { var cells: [LiteCell] }

enum ResultsBenchmark: Command {
  struct Options {
    var action: String
    var file: String?
    var runs: [Int]
    var budget: Double
    var runsPerCell: Int
  }

  static let runs = Option(
    "--runs", "LIST", "runs per cell to measure (bookkeeping)", default: [10, 100, 1000],
    parser: ValueParser(
      parse: { (text, name) throws(UsageError) -> [Int] in
        let values = text.split(separator: ",").compactMap { Int($0) }
        guard !values.isEmpty, values.count == text.split(separator: ",").count,
          values.allSatisfy({ (1...100_000).contains($0) })
        else { throw UsageError("\(name) wants whole numbers from 1 to 100000, not '\(text)'") }
        return values
      }, describe: { $0.map(String.init).joined(separator: ",") }))
  static let budget = Option(
    "--budget", "S", "stop a setting after S seconds (bookkeeping)", default: 600.0,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 86_400)))
  static let runsPerCell = Option(
    "--runs-per-cell", "N", "runs per cell of the file (make)", default: 1000,
    parser: .integer(in: 1...100_000))

  static let spec = CommandLineSpec(
    command: "results-benchmark",
    synopsis: "bookkeeping [--runs LIST] [--budget S] | make FILE [--runs-per-cell N]",
    summary: "What bench's bookkeeping costs per run, and big results files to time the readers with.",
    options: [runs, budget, runsPerCell])

  static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    switch parsed.positional.first {
    case "bookkeeping" where parsed.positional.count == 1:
      return Options(
        action: "bookkeeping", runs: try parsed.value(runs), budget: try parsed.value(budget), runsPerCell: 0)
    case "read" where parsed.positional.count == 2:
      return Options(action: "read", file: parsed.positional[1], runs: [], budget: 0, runsPerCell: 0)
    case "make" where parsed.positional.count == 2:
      return Options(
        action: "make", file: parsed.positional[1], runs: [], budget: 0,
        runsPerCell: try parsed.value(runsPerCell))
    default:
      throw UsageError("wants 'bookkeeping' or 'make FILE' (see --help)")
    }
  }

  static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    if options.action == "read", let file = options.file {
      var data = Data()
      var results: BenchResults?
      output.write(
        timed("read the bytes") { data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() })
      output.write(timed("JSONSerialization") { _ = try? JSONSerialization.jsonObject(with: data) })
      output.write(
        timed("JSONDecoder") { results = try? JSONDecoder().decode(BenchResults.self, from: data) })
      guard let results else { throw UsageError("\(file) does not decode") }
      output.write(timed("ResultsFile.load") { _ = try? ResultsFile.load(path: file) })
      output.write(
        timed("JSONDecoder without timelines") { _ = try? JSONDecoder().decode(Lite.self, from: data) })
      output.write(timed("ResultsFile.encode") { _ = try? ResultsFile.encode(results) })
      output.write(
        timed("compare first_frame_observed") {
          _ = Comparator.compare(
            results, results, options: ComparisonOptions(phases: ["first_frame_observed"]))
        })
      output.write(timed("compare every phase") { _ = Comparator.compare(results, results) })
      return 0
    }
    if options.action == "make", let file = options.file {
      let results = SyntheticResults.make(runs: options.runsPerCell, comparisons: true)
      do {
        try ResultsFile.save(results, to: file)
      } catch {
        throw UsageError("cannot write \(file): \(error)")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
      output.write(
        "wrote \(file): \(results.cells.count) cells × \(options.runsPerCell) runs, \(size) bytes\n")
      return 0
    }
    output.write(
      "runs/cell  runs   per-run cost (ms): p50    p90    max  | last tenth: p50    p90   | final save (ms)\n"
    )
    for n in options.runs {
      output.write(measure(runsPerCell: n, budget: options.budget) + "\n")
    }
    return 0
  }

  /// `label: N s (CPU N s)` for the time `body` took.
  static func timed(_ label: String, _ body: () -> Void) -> String {
    let wall = MonotonicClock.now()
    let cpu = MonotonicClock.threadCPUTime()
    body()
    let w = Double(MonotonicClock.now() - wall) / 1e9
    let c = Double(MonotonicClock.threadCPUTime() - cpu) / 1e9
    return label + ": " + String(format: "%.2f s (thread CPU %.2f s)", w, c) + "\n"
  }

  static func ms(_ ns: UInt64) -> String { String(format: "%6.3f", Double(ns) / 1e6) }

  static func measure(runsPerCell: Int, budget: Double) -> String {
    let out = temporaryFolder("results-benchmark")
    defer { try? FileManager.default.removeItem(atPath: out) }
    var settings = RunSettings()
    settings.runs = runsPerCell
    settings.warmup = 0
    settings.conditions = [.warm]
    settings.configs = [.deferred, .eager]
    settings.outDir = out
    let runner = InstantRunner()
    let started = MonotonicClock.now()
    let deadline = started + UInt64(budget * 1e9)
    let base = SyntheticResults.make(runs: 0)
    let journal = try? RunJournal(folder: out, base: base)
    let session = BenchSession(
      settings: settings, runner: runner, progress: ProgressReporter(total: 0, quiet: true), base: base,
      journal: journal, interrupted: { MonotonicClock.now() > deadline })
    var results = session.run()
    // The final save, as bench makes it at the end (results.json; the reports are not timed).
    if results.complete == true || journal == nil {
      results.complete = true
      try? ResultsFile.save(results, to: out + "/results.json")
    }
    let total = MonotonicClock.now() - started
    let costs = runner.costs
    let finished = results.cells.reduce(0) { $0 + $1.records.count }
    let sorted = costs.sorted()
    let tail = Array(costs.suffix(max(1, costs.count / 10))).sorted()
    func pct(_ s: [UInt64], _ p: Double) -> UInt64 {
      s.isEmpty ? 0 : s[min(s.count - 1, Int(Double(s.count - 1) * p))]
    }
    let inRuns = costs.reduce(0, +)
    let finalSave = total > inRuns ? total - inRuns : 0
    let stopped = finished < runsPerCell * 2 ? "  (stopped by --budget after \(finished) runs)" : ""
    func pad(_ text: String, _ width: Int) -> String {
      String(repeating: " ", count: max(0, width - text.count)) + text
    }
    return pad("\(runsPerCell)", 9) + "  " + pad("\(finished)", 5) + "  " + ms(pct(sorted, 0.5)) + " "
      + ms(pct(sorted, 0.9)) + " " + ms(sorted.last ?? 0) + " |             " + ms(pct(tail, 0.5)) + " "
      + ms(pct(tail, 0.9)) + " | " + ms(finalSave) + stopped
  }
}

exit(ResultsBenchmark.main(Array(CommandLine.arguments.dropFirst())))
