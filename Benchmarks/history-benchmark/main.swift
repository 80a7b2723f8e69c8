import CommandLineKit
import Foundation
import Statistics

// `history-benchmark`: issue 26's history benchmarks (Benchmarks/history-accuracy and
// Benchmarks/history-scale run it).
//
//   history-benchmark accuracy --results FILE [--cell C/K] [--phase P] [--runs-per-point N]
//       [--series N] [--noise-scale X] [--alpha P] [--permutations N] [--min-segment N]
//       E-divisive on synthetic series whose every point is the median of N runs drawn from the
//       cell's real runs: false change points on flat 60-point series, a 5 % step in 30-point
//       series found within ±1, the location errors.
//   history-benchmark replay FILE [--window N] [--max-p P] [--fdr Q] [--newest K]
//       The windowed detector with Benjamini–Hochberg across each group of series in FILE (one
//       night's series); docs/measurements/2026-12-07-history-detection.md.
//   history-benchmark make-db FILE [--benchmarks N] [--cells N] [--phases N] [--runs N]
//       An SQLite history of N benchmarks (one machine; cells × phases series, runs per cell),
//       recorded as `bench history record` records, with a 5 % step in one series of ten.

/// The command.
enum HistoryBenchmarkTool: Command {
  /// The checked command line.
  struct Options {
    /// `accuracy` or `make-db`.
    var action: String
    /// accuracy: the results file with the noise; make-db: the database to write.
    var file: String
    /// accuracy: the cell whose runs are the noise.
    var cell = "warm/deferred"
    /// accuracy: the phase.
    var phase = "first_frame_observed"
    /// accuracy: runs per benchmark point (nil: the cell's ok runs).
    var runsPerPoint: Int?
    /// accuracy: flat and stepped series, each.
    var series = 1000
    /// accuracy: the noise scales, one table row each.
    var noiseScales: [Double] = [1]
    /// accuracy: the detector's options.
    var detect = EDivisive.Options.history
    /// replay: the windowed detector's window.
    var window = WindowedChangePoints.Options.history.windowLength
    /// replay: its largest p-value.
    var maxPValue = WindowedChangePoints.Options.history.maxPValue
    /// replay: the false discovery rate across a group.
    var falseDiscoveryRate = 0.01
    /// replay: the smallest move of a change point.
    var minimumMagnitude = WindowedChangePoints.Options.history.minimumMagnitude
    /// replay: the newest splits tested on their own.
    var newest = WindowedChangePoints.Options.history.newestNights
    /// make-db: benchmarks.
    var benchmarks = 1000
    /// make-db: cells per benchmark.
    var cells = 40
    /// make-db: phases per run.
    var phases = 10
    /// make-db: runs per cell.
    var runs = 10
  }

  static let results = Option<String?>(
    "--results", "FILE", "accuracy: the results file with the noise", parser: .fileName)
  static let cell = Option(
    "--cell", "C/K", "accuracy: the cell whose runs are the noise", default: "warm/deferred", parser: .text)
  static let phase = Option(
    "--phase", "P", "accuracy: the phase", default: "first_frame_observed", parser: .text)
  static let runsPerPoint = Option<Int?>(
    "--runs-per-point", "N", "accuracy: runs per benchmark", shownAs: "the cell's ok runs",
    parser: .integer(in: 1...10_000))
  static let series = Option(
    "--series", "N", "accuracy: flat and stepped series each", default: 1000,
    parser: .integer(in: 1...100_000))
  static let noiseScale = Option(
    "--noise-scale", "LIST", "accuracy: the noise's deviations times each of these", default: [1.0],
    parser: ValueParser(
      parse: { (text, name) throws(UsageError) -> [Double] in
        let values = text.split(separator: ",").compactMap { Double($0) }
        guard !values.isEmpty, values.count == text.split(separator: ",").count, values.allSatisfy({ $0 > 0 })
        else { throw UsageError("\(name) wants positive numbers, not '\(text)'") }
        return values
      }, describe: { $0.map { String($0) }.joined(separator: ",") }))
  static let alpha = Option(
    "--alpha", "P", "accuracy: the significance level", default: EDivisive.Options.history.alpha,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let permutations = Option(
    "--permutations", "N", "accuracy: permutations per test", default: EDivisive.Options.history.permutations,
    parser: .integer(in: 10...100_000))
  static let minSegment = Option(
    "--min-segment", "N", "accuracy: the fewest points on each side",
    default: EDivisive.Options.history.minimumSegment,
    parser: .integer(in: 1...1000))
  static let window = Option(
    "--window", "N", "replay: points per window", default: WindowedChangePoints.Options.history.windowLength,
    parser: .integer(in: 3...10_000))
  static let maxP = Option(
    "--max-p", "P", "replay: the largest p-value", default: WindowedChangePoints.Options.history.maxPValue,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let fdr = Option(
    "--fdr", "Q", "replay: the false discovery rate across a group", default: 0.01,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let minMagnitude = Option(
    "--min-magnitude", "R", "replay: the smallest move of the mean (0.02: 2 %)",
    default: WindowedChangePoints.Options.history.minimumMagnitude,
    parser: .number(in: NumberRange(atLeast: 0)))
  static let newest = Option(
    "--newest", "K", "replay: the newest nights tested on their own (0: none)",
    default: WindowedChangePoints.Options.history.newestNights, parser: .integer(in: 0...100))
  static let benchmarks = Option(
    "--benchmarks", "N", "make-db: benchmarks", default: 1000, parser: .integer(in: 1...1_000_000))
  static let cells = Option(
    "--cells", "N", "make-db: cells per benchmark", default: 40, parser: .integer(in: 1...1000))
  static let phases = Option(
    "--phases", "N", "make-db: phases per run", default: 10, parser: .integer(in: 1...100))
  static let runs = Option(
    "--runs", "N", "make-db: runs per cell", default: 10, parser: .integer(in: 1...10_000))

  /// The option table (parser and `--help`).
  static let spec = CommandLineSpec(
    command: "history-benchmark",
    synopsis: "accuracy --results FILE [options] | replay FILE [options] | make-db FILE [options]",
    summary:
      "Issue 26's history benchmarks: change-point detection accuracy on a machine's noise, and big databases.",
    options: [
      results, cell, phase, runsPerPoint, series, noiseScale, alpha, permutations, minSegment, window, maxP,
      fdr,
      minMagnitude, newest, benchmarks,
      cells,
      phases, runs,
    ])

  /// Checks the command line: an action and the options it takes.
  static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    switch (parsed.positional.first, parsed.positional.count) {
    case ("accuracy", 1):
      guard let file = try parsed.value(results) else { throw UsageError("accuracy wants --results FILE") }
      var options = Options(action: "accuracy", file: file)
      options.cell = try parsed.value(cell)
      options.phase = try parsed.value(phase)
      options.runsPerPoint = try parsed.value(runsPerPoint)
      options.series = try parsed.value(series)
      options.noiseScales = try parsed.value(noiseScale)
      options.detect = EDivisive.Options(
        alpha: try parsed.value(alpha), permutations: try parsed.value(permutations),
        minimumSegment: try parsed.value(minSegment))
      return options
    case ("replay", 2):
      var options = Options(action: "replay", file: parsed.positional[1])
      options.window = try parsed.value(window)
      options.maxPValue = try parsed.value(maxP)
      options.falseDiscoveryRate = try parsed.value(fdr)
      options.minimumMagnitude = try parsed.value(minMagnitude)
      options.newest = try parsed.value(newest)
      return options
    case ("make-db", 2):
      var options = Options(action: "make-db", file: parsed.positional[1])
      options.benchmarks = try parsed.value(benchmarks)
      options.cells = try parsed.value(cells)
      options.phases = try parsed.value(phases)
      options.runs = try parsed.value(runs)
      return options
    default:
      throw UsageError("wants 'accuracy --results FILE', 'replay FILE' or 'make-db FILE' (see --help)")
    }
  }

  /// Does the action.
  static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    switch options.action {
    case "accuracy": return try accuracy(options, output: &output)
    case "replay": return try replay(options, output: &output)
    default: return try makeDatabase(options, output: &output, errors: &errors)
    }
  }
}

exit(HistoryBenchmarkTool.main(Array(CommandLine.arguments.dropFirst())))
