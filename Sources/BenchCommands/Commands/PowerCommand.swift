import BenchKit
import Foundation
import SystemCalls
import Gates
import LaunchContract
import Reports
import RunAnalysis
import ResultsSchema

/// `bench power RESULTS.json`: the baseline gate's false alarms and power, measured by resampling
/// the runs of each cell under the rule CI runs (`GatePower`); with `--size`, the runs per side
/// the gate needs (`GateSizing`). `Benchmarks/gate-power` makes the 60-run cells and records the
/// figures `bench gate` quotes and `scripts/ab-gate` runs.
package enum PowerCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// The results file whose cells are resampled.
    package var path: String
    /// Runs per side of each comparison; nil: 20, or with `--size` the count chosen for CI.
    package var runsPerSide: Int?
    /// Comparisons per cell (A/A, and per shift).
    package var comparisons: Int
    /// What goes to stdout.
    package var format: Format
    /// What an inconclusive check counts as (CI's gate: fail).
    package var inconclusive: Gate.InconclusivePolicy = .fail
    /// `--size`: also size the gate (`GateSizing`).
    package var size = false
    /// The sizing's goals (`--shift`, `--power-goal`, `--false-alarm-goal`).
    package var goals = GateSizing.Goals()
    /// `--margin`: CI's runs per side over the smallest count meeting the goals.
    package var margin = PowerCommand.defaultMargin
    /// `--sequential`: measure the sequential design (`SequentialSizing`) instead of the fixed gate.
    package var sequential = false
    /// `--relative FILE`: measure the relative gates of that gates file instead (`RelativeGatePower`).
    package var relative: String?
    /// `--against FILE`: draw each comparison's baseline side from that recording, made apart
    /// (the baseline gate across sessions), instead of splitting one recording's cells.
    package var against: String?
    /// `--noise-ceiling`, as a fraction: measure the rule `bench gate --noise-ceiling` runs.
    package var noiseCeiling: Double?
  }

  /// CI's runs per side over the smallest count meeting the goals, by default: the ratio of
  /// medians spreads as σ/√n, so 4× the runs keeps the measured power and false alarms with twice
  /// the noise measured (CI shares its machine), and a planted slowdown a little under 10 % is
  /// still caught.
  package static let defaultMargin = 4.0

  /// `--format`.
  package enum Format: String, Sendable, CaseIterable {
    /// A table for people.
    case table
    /// JSON for tools (`GatePower.Report`).
    case json
  }

  static let runsPerSide = Option<Int?>(
    "--runs-per-side", "N",
    "runs on each side of a comparison (default 20; with --size, the count chosen for CI)",
    parser: .integer(in: 2...10_000))
  static let comparisons = Option(
    "--comparisons", "N", "comparisons per cell, A/A and per shift", default: GatePower.defaultComparisons,
    parser: .integer(in: 1...100_000))
  static let format = Option("--format", "FORMAT", "table or json", default: Format.table, parser: .choice())
  static let inconclusive = Option(
    "--inconclusive", "fail|pass", "what an inconclusive check counts as, as in bench gate (CI: fail)",
    default: Gate.InconclusivePolicy.fail, parser: .choice())
  static let size = Flag(
    "--size", "also size the gate: power and false alarms for 3 … half the runs per side")
  static let shift = Option(
    "--shift", "PCT", "the uniform slowdown --size sizes for, in %", default: 10.0,
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 1000)))
  static let powerGoal = Option(
    "--power-goal", "PCT", "share of comparisons that must catch it in every cell (95 % lower bound), in %",
    default: 95.0, parser: .number(in: NumberRange(greaterThan: 0, below: 100)))
  static let falseAlarmGoal = Option(
    "--false-alarm-goal", "PCT", "family-wise A/A false alarms allowed (95 % upper bound), in %",
    default: 1.0,
    parser: .number(in: NumberRange(greaterThan: 0, below: 100)))
  static let sequential = Flag(
    "--sequential",
    "measure bench ab's sequential design instead: expected and most runs a side, verdicts per shift; --size sizes it"
  )
  static let relative = Option<String?>(
    "--relative", "GATES.json",
    "measure the file's relative gates instead: their false alarms and reach at --runs-per-side runs a cell (default 3, CI's)",
    parser: .fileName)
  static let against = Option<String?>(
    "--against", "BASELINE.json",
    "draw each comparison's baseline side from this recording, made apart (the gate across sessions)",
    parser: .fileName)
  static let noiseCeiling = Option<Double?>(
    "--noise-ceiling", "PCT",
    "measure bench gate --noise-ceiling PCT's rule: where either side is noisier, only p < α / cells fails",
    parser: .number(in: NumberRange(greaterThan: 0, atMost: 100)))
  static let margin = Option(
    "--margin", "X", "CI's runs per side over the smallest count meeting the goals", default: defaultMargin,
    parser: .number(in: NumberRange(atLeast: 1, atMost: 100)))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench power",
    synopsis:
      "RESULTS.json [--runs-per-side N] [--comparisons N] [--size [--shift PCT]] [--format table|json]",
    summary: """
      Measures the baseline gate (first_frame_observed, its default threshold and alpha, an
      inconclusive check failing as in CI) by resampling each cell's runs, failed ones as slower
      than any: split into two disjoint halves of N runs, A/A comparisons count false alarms (per
      cell, and family-wise: a gate run over all the cells fails when any does), and the same
      splits with the new half made 1 %…100 % slower count how often the gate catches each
      regression. Cells need at least 2 × N runs. --size also tries every N from 3 to half the
      runs against one uniform slowdown and names the smallest N meeting the goals, and the N
      chosen for CI (that times --margin); the report is then measured at that N.
      Benchmarks/gate-power runs bench with 60 runs per cell.
      """,
    options: [
      runsPerSide, comparisons, format, inconclusive, size, shift, powerGoal, falseAlarmGoal, margin,
      sequential, relative, against, noiseCeiling,
    ],
    epilogue: """
      --sequential measures bench ab's sequential design (a look every 4 pairs, α = 0.01 over the
      looks and the file's cells, α/cells a cell, β = 0.05 a cell, threshold 5 %, Pocock-type
      spending; docs/gates-and-ci.md) on each cell's runs
      resampled with replacement, with planted shifts of 0, 2, 5, 10 and 20 % (and --shift): the
      verdicts, the mean (expected) and worst runs a side; --runs-per-side is then the design's most
      runs a side (default 36), --comparisons the resamples per shift (default 500 with
      --sequential). With --size it tries 2 … 12 looks and reports the smallest design meeting the
      goals. Cells need 10 runs.
      --relative GATES.json measures the file's relative gates (Benchmarks/gates.json: ratios of
      two configurations' medians against a bound) as bench gate decides them, an inconclusive
      decision counted as --inconclusive says: --runs-per-side runs (default 3, what CI gives
      them) are drawn from each cell, --comparisons times (default 500 with --relative), at
      shift 0 (how often a healthy build fails) and with the ratio moved 5 % … 100 % toward the
      bound (the protected configuration that much slower).
      --against BASELINE.json measures the baseline gate as scripts/nightly's GATE=baseline meets
      it: a baseline recorded in one session gating runs made in another. Each comparison draws N
      runs from the baseline's cell and N from the results' (each side needs N), so the A/A
      comparisons hold whatever drifted between the two sessions. One pair of sessions is one draw
      of that drift. The two must be made the same way on the same machine, as bench gate
      requires of a baseline; it takes neither --sequential, --relative nor --size.
      exit status: 0 measured, 2 bad usage, an unreadable results file or no cell with enough runs
      """)

  /// Checks the command line: one results file.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    Options(
      path: try parsed.onlyResultsFile(), runsPerSide: try parsed.value(runsPerSide),
      comparisons: parsed.values[comparisons.name] == nil
        && (parsed.isSet(sequential) || parsed.values[relative.name] != nil)
        ? sequentialComparisons : try parsed.value(comparisons),
      format: try parsed.value(format), inconclusive: try parsed.value(inconclusive),
      size: parsed.isSet(size),
      goals: GateSizing.Goals(
        shift: try parsed.value(shift) / 100, power: try parsed.value(powerGoal) / 100,
        falseAlarms: try parsed.value(falseAlarmGoal) / 100),
      margin: try parsed.value(margin),
      sequential: parsed.isSet(sequential), relative: try relativeOption(parsed),
      against: try againstOption(parsed), noiseCeiling: try noiseCeilingOption(parsed))
  }

  /// `--noise-ceiling`, as a fraction; refused beside the options that measure another gate.
  static func noiseCeilingOption(_ parsed: ParsedOptions) throws(UsageError) -> Double? {
    guard let pct = try parsed.value(noiseCeiling) else { return nil }
    try refuse(parsed, "--noise-ceiling is the baseline gate's", beside: [sequential.name, relative.name])
    return pct / 100
  }

  /// `--against`'s file, refused beside the options that measure another gate or size one.
  static func againstOption(_ parsed: ParsedOptions) throws(UsageError) -> String? {
    guard let path = try parsed.value(against) else { return nil }
    try refuse(
      parsed, "--against measures the baseline gate across two recordings",
      beside: [sequential.name, relative.name, size.name])
    return path
  }

  /// `--relative`'s file, refused beside `--sequential` or `--size`, which measure other gates.
  static func relativeOption(_ parsed: ParsedOptions) throws(UsageError) -> String? {
    guard let path = try parsed.value(relative) else { return nil }
    try refuse(parsed, "--relative measures the relative gates", beside: [sequential.name, size.name])
    return path
  }

  /// Refuses an option given beside any of `others` (option names), which measure another gate:
  /// "`what`; it takes neither --a, --b nor --c".
  static func refuse(_ parsed: ParsedOptions, _ what: String, beside others: [String]) throws(UsageError) {
    guard others.contains(where: { parsed.flags.contains($0) || parsed.values[$0] != nil }) else { return }
    let list =
      others.count == 2
      ? "\(others[0]) nor \(others[1])"
      : others.dropLast().joined(separator: ", ") + " nor " + others[others.count - 1]
    throw UsageError("\(what); it takes neither \(list)")
  }

  /// `--sequential`'s resamples per shift when `--comparisons` is not given.
  static let sequentialComparisons = 500

  /// The gate's measured figures, as `Benchmarks/gate-power --record` stores them (relative to the
  /// package root, where CI and the nightly run `bench gate`).
  package static let figuresPath = "Benchmarks/gate-power.json"

  /// Reads a `bench power --format json` file.
  /// - Throws: `UsageError` when it cannot be read or is not one.
  package static func loadFigures(path: String) throws(UsageError) -> GatePower.Report {
    guard let bytes = FileSystem.readFile(atPath: path) else {
      throw UsageError("cannot read \(path)")
    }
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    do {
      return try decoder.decode(GatePower.Report.self, from: Data(bytes))
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
    guard explicitPath != nil || FileSystem.exists(atPath: path) else {
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
    if figures.noiseCeiling != options.noiseCeiling {
      differences.append(
        options.noiseCeiling.map { "a \(NumberFormat.percent($0)) noise ceiling" } ?? "no noise ceiling")
    }
    let note =
      differences.isEmpty
      ? "" : " (this gate uses \(differences.joined(separator: ", ")): not the rule measured)"
    return "\(figures.phase), from \(path): \(figures.quote)\(note)"
  }

  /// Measures and writes the report to `output`.
  /// - Throws: `UsageError` for an unreadable results file, or one without a cell of 2 × N runs.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let results = try UsageError.reading { () throws(ResultsFileError) in
      try ResultsFile.load(path: options.path)
    }
    if options.sequential { return try executeSequential(options, results: results, output: &output) }
    if let gates = options.relative {
      return try executeRelative(options, gatesPath: gates, results: results, output: &output)
    }
    var rule = Gate.BaselineOptions()
    rule.noiseCeiling = options.noiseCeiling
    let sizing =
      options.size
      ? GateSizing.size(
        results, goals: options.goals, margin: options.margin, comparisonsPerCell: options.comparisons,
        options: rule, inconclusive: options.inconclusive)
      : nil
    if let sizing, sizing.rows.isEmpty {
      throw UsageError(
        "\(options.path) has no cell with 6 runs of \(PhaseName.firstFrameObserved) to size the gate with (run bench with --runs 60)"
      )
    }
    let n = options.runsPerSide ?? sizing?.chosenRunsPerSide ?? 20
    let baseline = try options.against.map { path throws(UsageError) in try loadBaseline(path, for: results) }
    var report = GatePower.measure(
      results, against: baseline, runsPerSide: n, comparisonsPerCell: options.comparisons, options: rule,
      inconclusive: options.inconclusive)
    report.sizing = sizing
    guard !report.cells.isEmpty else {
      if let against = options.against {
        throw UsageError(
          "\(options.path) and \(against) share no cell with \(n) runs of \(PhaseName.firstFrameObserved) on each side"
        )
      }
      throw UsageError(
        "\(options.path) has no cell with \(2 * n) runs of \(PhaseName.firstFrameObserved) (run bench with --runs \(2 * n))"
      )
    }
    switch options.format {
    case .table: output.write(GatePowerTable.text(report, source: options.path, baseline: options.against))
    case .json:
      writeJSON(report, to: &output)
    }
    return 0
  }

  /// `--against`'s recording, refused as `bench gate` refuses a baseline made differently or on
  /// another machine: the gate would compare nothing there, so there is nothing to measure.
  static func loadBaseline(_ path: String, for results: BenchResults) throws(UsageError) -> BenchResults {
    let baseline = try UsageError.reading { () throws(ResultsFileError) in try ResultsFile.load(path: path) }
    let reasons = Gate.incompatibilities(baseline: baseline, results: results)
    guard reasons.isEmpty else {
      throw UsageError(
        "\(path) was measured differently (\(reasons.joined(separator: "; "))): bench gate refuses it as a baseline for these results"
      )
    }
    return baseline
  }

  /// `value` as the `--format json` output: pretty, keys sorted, non-finite numbers as strings.
  static func writeJSON(_ value: some Encodable, to output: inout some TextOutputStream) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    if let data = try? encoder.encode(value) { output.write(String(decoding: data, as: UTF8.self) + "\n") }
  }
}
