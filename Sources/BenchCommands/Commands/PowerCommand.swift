import BenchAnalysis
import BenchKit
import Foundation
import LaunchContract
import ResultsSchema

/// `bench power RESULTS.json`: the baseline gate's false alarms and power, measured by resampling
/// the runs of each cell (`GatePower`; `Benchmarks/gate-power` makes the 40-run cells).
package enum PowerCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// The results file whose cells are resampled.
    package var path: String
    /// Runs per side of each comparison.
    package var runsPerSide: Int
    /// Comparisons per cell (A/A, and per shift).
    package var comparisons: Int
    /// What goes to stdout.
    package var format: Format
  }

  /// `--format`.
  package enum Format: String, Sendable, CaseIterable {
    /// A table for people.
    case table
    /// JSON for tools (`GatePower.Report`).
    case json
  }

  static let runsPerSide = Option(
    "--runs-per-side", "N", "runs on each side of a comparison", default: 20, parser: .integer(in: 2...10_000)
  )
  static let comparisons = Option(
    "--comparisons", "N", "comparisons per cell, A/A and per shift", default: 250,
    parser: .integer(in: 1...100_000))
  static let format = Option("--format", "FORMAT", "table or json", default: Format.table, parser: .choice())

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench power",
    synopsis: "RESULTS.json [--runs-per-side N] [--comparisons N] [--format table|json]",
    summary: """
      Measures the baseline gate (first_frame_observed, its default threshold and alpha) by
      resampling each cell's runs: split into two disjoint halves of N runs, A/A comparisons count
      false alarms, and the same splits with the new half made 1 %…100 % slower count how often the
      gate catches each regression. Cells need at least 2 × N ok runs (Benchmarks/gate-power runs
      bench with 40).
      """,
    options: [runsPerSide, comparisons, format],
    epilogue: "exit status: 0 measured, 2 bad usage, an unreadable results file or no cell with enough runs")

  /// Checks the command line: one results file.
  package static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    Options(
      path: try o.onlyResultsFile(), runsPerSide: try o.value(runsPerSide),
      comparisons: try o.value(comparisons),
      format: try o.value(format))
  }

  /// The gate's measured figures, as `Benchmarks/gate-power --record` stores them (relative to the
  /// package root, where CI and the nightly run `bench gate`).
  package static let figuresPath = "Benchmarks/gate-power.json"

  /// Reads a `bench power --format json` file.
  /// - Throws: `UsageError` when it cannot be read or is not one.
  package static func loadFigures(path: String) throws(UsageError) -> GatePower.Report {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw UsageError("cannot read \(path)")
    }
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
      return try decoder.decode(GatePower.Report.self, from: data)
    } catch {
      throw UsageError("\(path) is not a bench power --format json report: \(error)")
    }
  }

  /// The line the gate's power advice quotes: the figures in `explicitPath` (`--power`), else in
  /// `figuresPath` when present, naming any difference between their α or threshold and the
  /// gate's; or a line saying they were not measured.
  /// - Throws: `UsageError` when `explicitPath` cannot be read.
  package static func quote(explicitPath: String?, options: Gate.BaselineOptions) throws(UsageError) -> String
  {
    let path = explicitPath ?? figuresPath
    guard explicitPath != nil || FileManager.default.fileExists(atPath: path) else {
      return "the gate's false alarms and power were not measured here (\(figuresPath) is missing:"
        + " run Benchmarks/gate-power --record)"
    }
    let figures = try loadFigures(path: path)
    var differences: [String] = []
    if figures.alpha != options.alpha { differences.append("α = \(options.alpha)") }
    let threshold = options.threshold(for: figures.phase)
    if figures.threshold != threshold {
      differences.append("threshold \(String(format: "%g", threshold * 100)) %")
    }
    let note =
      differences.isEmpty
      ? "" : " (this gate uses \(differences.joined(separator: ", ")): not the rule measured)"
    return "\(figures.phase), from \(path): \(figures.quote)\(note)"
  }

  /// Measures and writes the report to `output`.
  /// - Throws: `UsageError` for an unreadable results file, or one without a cell of 2 × N runs.
  package static func execute(
    _ o: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let results = try UsageError.reading { () throws(ResultsFileError) in try ResultsFile.load(path: o.path) }
    let report = GatePower.measure(results, runsPerSide: o.runsPerSide, comparisonsPerCell: o.comparisons)
    guard !report.cells.isEmpty else {
      throw UsageError(
        "\(o.path) has no cell with \(2 * o.runsPerSide) ok runs of \(PhaseName.firstFrameObserved) (run bench with --runs \(2 * o.runsPerSide))"
      )
    }
    switch o.format {
    case .table: output.write(GatePowerTable.text(report, source: o.path))
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
      if let data = try? encoder.encode(report) { output.write(String(decoding: data, as: UTF8.self) + "\n") }
    }
    return 0
  }
}
