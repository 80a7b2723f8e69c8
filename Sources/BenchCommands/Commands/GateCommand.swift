import BenchKit
import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema
import RunAnalysis

/// `bench gate`: the CI gate. Exit 0 pass, 1 regression, 2 bad input.
package enum GateCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// The results file to check.
    package var resultsPath: String
    /// The baseline to compare against, if any.
    package var baselinePath: String?
    /// The gate definitions file, if any.
    package var gatesPath: String?
    /// `--threshold`, as fractions.
    package var thresholds: Thresholds
    /// `--alpha`, when given (otherwise the gates file's or the default).
    package var alpha: Double?
    /// Compare against a foreign baseline.
    package var force: Bool
    /// Where to write JUnit XML, if anywhere.
    package var junitPath: String?
    /// Where to write a Markdown summary, if anywhere.
    package var markdownPath: String?
    /// Print only failures and the verdict.
    package var quiet: Bool
    /// `--power`: the measured false alarms and power to quote, when given.
    package var powerPath: String? = nil
    /// `--inconclusive`: whether a check that could not decide fails the gate.
    package var inconclusive: Gate.InconclusivePolicy = .fail
    /// `--optional-cells`: cells (`config/condition[@camera]`) a baseline check may skip when
    /// one side lacks them, besides the gates file's `baseline.optional_cells`.
    package var optionalCells: [String] = []
    /// `--allow-incomplete`: gate interrupted or unfinished results with a warning instead of failing.
    package var allowIncomplete: Bool = false
    /// `--max-failure-rise`, as a fraction of the runs, when given (otherwise the gates file's
    /// `baseline.failure_rate.max_rise_pct` or the default, 5 points).
    package var maxFailureRise: Double? = nil
    /// `--noise-ceiling`, as a fraction, when given: above it an inconclusive time check does not
    /// fail (`Gate.BaselineOptions.noiseCeiling`).
    package var noiseCeiling: Double? = nil
  }

  /// `--threshold`: `5`, or `first_frame_observed=5,start_running=10` (percent), as fractions.
  package struct Thresholds: Sendable, Equatable {
    /// The threshold of every gated phase without its own, when given.
    package var fallback: Double?
    /// Thresholds by phase.
    package var perPhase: [String: Double] = [:]

    /// Parses `5` or `PHASE=PCT[,PHASE=PCT…]` (percent).
    static func parse(_ raw: String) throws(UsageError) -> Thresholds {
      var thresholds = Thresholds()
      for item in raw.split(separator: ",").map(String.init) {
        let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
        let pctText = parts.count == 2 ? parts[1] : parts[0]
        guard let pct = Double(pctText), pct.isFinite, pct >= 0 else {
          throw UsageError("--threshold wants PCT or PHASE=PCT with PCT a number ≥ 0, not '\(item)'")
        }
        if parts.count == 2 {
          guard PhaseName.all.contains(parts[0]) else {
            throw UsageError(
              "unknown phase '\(parts[0])' in --threshold (choose from \(PhaseName.all.joined(separator: ", ")))"
            )
          }
          thresholds.perPhase[parts[0]] = pct / 100
        } else {
          thresholds.fallback = pct / 100
        }
      }
      return thresholds
    }
  }

  static let baseline = Option<String?>(
    "--baseline", "FILE", "the baseline results file to compare against", parser: .fileName)
  static let gates = Option<String?>(
    "--gates", "FILE", "gate definitions (firstframe.gates/1), e.g. Benchmarks/gates.json", parser: .fileName)
  static let threshold = Option(
    "--threshold", "SPEC", "PCT, or PHASE=PCT[,PHASE=PCT…]: allowed slowdown in percent",
    default: Thresholds(),
    shownAs: "5",
    parser: ValueParser(
      parse: { (text, _) throws(UsageError) in try Thresholds.parse(text) }, describe: { _ in nil }))
  static let alpha = Option<Double?>(
    "--alpha", "P", "significance level a regression must reach", shownAs: "0.01",
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let force = Flag(
    "--force", "compare against a baseline made differently or on another machine (each difference named)")
  static let junit = Option<String?>(
    "--junit", "FILE", "also write JUnit XML (each check a test case)", parser: .fileName)
  static let markdown = Option<String?>(
    "--markdown", "FILE", "also write a Markdown summary of the checks", parser: .fileName)
  static let quiet = Flag("--quiet", "print only failures and the verdict")
  static let power = Option<String?>(
    "--power", "FILE",
    "measured false alarms and power to quote (default \(PowerCommand.figuresPath))", parser: .text)

  static let inconclusive = Option(
    "--inconclusive", "fail|pass",
    "what a check that could not decide counts as (CI and the nightly: fail)",
    default: Gate.InconclusivePolicy.fail,
    parser: .choice())
  static let optionalCells = Option(
    "--optional-cells", "CELLS",
    "config/condition[@camera],…: cells the baseline gate skips, not fails, when one side lacks them",
    default: [String](), shownAs: "none",
    parser: ValueParser(
      parse: { (text, name) throws(UsageError) -> [String] in
        let cells = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for cell in cells where !GateDefinitions.isCellName(cell) {
          throw UsageError("\(name) wants config/condition[@camera],…, e.g. deferred/loaded, not '\(cell)'")
        }
        return cells
      }, describe: { $0.joined(separator: ",") }))
  static let allowIncomplete = Flag(
    "--allow-incomplete",
    "gate interrupted or unfinished (\"complete\": false) results with a warning, not a failure")

  static let maxFailureRise = Option<Double?>(
    "--max-failure-rise", "PCT",
    "largest rise in a cell's failed runs over the baseline's, in percentage points, that passes",
    shownAs: "5",
    parser: .number(in: NumberRange(atLeast: 0, atMost: 100)))

  static let noiseCeiling = Option<Double?>(
    "--noise-ceiling", "PCT",
    "where either side's noise is above PCT %, a time check fails only when significant at α / the results' cells, else is skipped",
    shownAs: "none", parser: .number(in: NumberRange(greaterThan: 0, atMost: 100)))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench gate", synopsis: "[--baseline BASE.json] [--gates FILE] RESULTS.json [options]",
    summary: """
      Fails (exit 1) when a gated phase of some cell is slower than the baseline beyond its
      threshold AND significantly so (two-sided Mann–Whitney p < alpha), naming each failing phase
      with its medians, ratio, 95 % CI and p. Slower beyond the threshold but not significantly is
      inconclusive, and also fails unless --inconclusive pass (CI and the nightly use fail). Gated by
      default: first_frame_observed, plus the phases listed in the gates file or given with
      --threshold PHASE=PCT. A cell on one side only fails unless optional (--optional-cells, or
      the gates file's baseline.optional_cells); interrupted results fail unless --allow-incomplete.
      With --gates, also checks the relative gates of that file (ratios between configurations of
      the same run), which hold on any machine. Failed runs rank after every finished run, and a
      cell's share of failed runs rising more than --max-failure-rise points over the baseline's (or
      significantly, by Fisher's exact test) fails by itself. A baseline made differently (camera, profile,
      display path, board, feeder, timeout, apps, machine, tool version) is refused unless --force.
      """,
    options: [
      baseline, gates, threshold, alpha, maxFailureRise, force, junit, markdown, quiet, power, inconclusive,
      optionalCells,
      allowIncomplete, noiseCeiling,
    ],
    epilogue: """
      exit status: 0 every gate passed, 1 a check failed (a regression, a cell without successful runs or
      missing from one side, incomplete results, or an inconclusive check under --inconclusive fail),
      2 bad usage or input
      """
  )

  /// Checks the command line: one results file, and a baseline or a gates file to check it with.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.count == 1 else {
      throw UsageError("wants one results file after the options (got \(parsed.positional.count))")
    }
    guard !parsed.positional[0].isEmpty else { throw UsageError("wants one results file, not an empty name") }
    let baselinePath = try parsed.value(baseline)
    let gatesPath = try parsed.value(gates)
    guard baselinePath != nil || gatesPath != nil else {
      throw UsageError("nothing to check: give --baseline BASE.json and/or --gates FILE")
    }
    return Options(
      resultsPath: parsed.positional[0], baselinePath: baselinePath, gatesPath: gatesPath,
      thresholds: try parsed.value(threshold), alpha: try parsed.value(alpha), force: parsed.isSet(force),
      junitPath: try parsed.value(junit), markdownPath: try parsed.value(markdown),
      quiet: parsed.isSet(quiet),
      powerPath: try parsed.value(power), inconclusive: try parsed.value(inconclusive),
      optionalCells: try parsed.value(optionalCells), allowIncomplete: parsed.isSet(allowIncomplete),
      maxFailureRise: try parsed.value(maxFailureRise).map { $0 / 100 },
      noiseCeiling: try parsed.value(noiseCeiling).map { $0 / 100 })
  }

  /// Checks the results and writes one line per check and the verdict to `output`. Returns 0
  /// when every gate passed, 1 when a check failed (an inconclusive one under
  /// `--inconclusive fail` included).
  /// - Throws: `UsageError` for an unreadable file, a foreign baseline without `--force`, an
  ///   `--optional-cells` name that is no cell of either file, or a report that cannot be written.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    // Gates read samples only: the runs' timelines are skipped. The results and the baseline
    // are read at once (the results' error, then the gates file's, then the baseline's).
    let loaded = ResultsFile.loadConcurrently(
      [options.resultsPath] + (options.baselinePath.map { [$0] } ?? []), timelines: .none)
    let results = try loaded[0].mapError(UsageError.init).get()
    let definitions = try options.gatesPath.map { (p: String) throws(UsageError) in
      try UsageError.reading { () throws(ResultsFileError) in try GateDefinitions.load(path: p) }
    }

    var report = GateReport(inconclusive: options.inconclusive)
    report.merge(
      Gate.checkComplete(results, file: options.resultsPath, allowIncomplete: options.allowIncomplete))
    if let baselinePath = options.baselinePath {
      let baseline = try loaded[1].mapError(UsageError.init).get()
      report.merge(Gate.checkComplete(baseline, file: baselinePath, allowIncomplete: options.allowIncomplete))
      report.merge(try baselineReport(options, results, against: baseline, at: baselinePath, definitions))
      report.warnings += abWarnings(baseline: baseline, results: results)
    } else if !options.optionalCells.isEmpty {
      throw UsageError("--optional-cells applies to the baseline gate: give --baseline BASE.json")
    }
    if let definitions {
      report.outcomes += Gate.checkRelative(definitions.relative ?? [], results: results)
    }

    for outcome in report.outcomes where !options.quiet || report.fails(outcome) {
      output.write(outcome.line + "\n")
    }
    for warning in report.warnings { output.write("warning: \(warning)\n") }
    if !options.quiet, let measured = report.measuredPower { output.write("power: \(measured)\n") }
    if !options.quiet { for advice in report.advice { output.write("power: \(advice.summary)\n") } }
    output.write(report.verdictLine + "\n")
    if let path = options.junitPath { try write(JUnitReport.xml(gate: report), to: path) }
    if let path = options.markdownPath { try write(MarkdownReport.gateSection(report), to: path) }
    return report.passed ? 0 : 1
  }

  /// The baseline gate of `results` against `baseline` (read from `baselinePath`): refuses a
  /// baseline made differently unless `--force`, applies the gates file's `baseline` section
  /// and the command line, and quotes the measured power.
  /// - Throws: `UsageError` for a foreign baseline without `--force`, or an `--optional-cells`
  ///   name that is a cell of neither file.
  static func baselineReport(
    _ commandOptions: Options, _ results: BenchResults, against baseline: BenchResults,
    at baselinePath: String,
    _ definitions: GateDefinitions?
  ) throws(UsageError) -> GateReport {
    var report = GateReport(inconclusive: commandOptions.inconclusive)
    let reasons = Gate.incompatibilities(baseline: baseline, results: results)
    if !reasons.isEmpty {
      guard commandOptions.force else {
        throw UsageError(
          "baseline \(baselinePath) was measured differently (\(reasons.joined(separator: "; "))); record a new baseline with 'bench baseline save', or pass --force to compare anyway"
        )
      }
      report.warnings.append(
        "comparing against a foreign baseline (--force): \(reasons.joined(separator: "; "))")
    }
    let known = Set((results.cells + baseline.cells).map { CellKey($0).name })
    if let unknown = commandOptions.optionalCells.first(where: { !known.contains($0) }) {
      throw UsageError(
        "--optional-cells: '\(unknown)' is no cell of the results or the baseline (cells: \(known.sorted().joined(separator: ", ")))"
      )
    }
    var options = Gate.BaselineOptions()
    if let section = definitions?.baseline { options.apply(section) }
    options.optionalCells.formUnion(commandOptions.optionalCells)
    if let d = commandOptions.thresholds.fallback { options.defaultThreshold = d }
    for (phase, t) in commandOptions.thresholds.perPhase.sorted(by: { $0.key < $1.key }) {
      options.thresholds[phase] = t
      if !options.phases.contains(phase) { options.phases.append(phase) }
    }
    if let a = commandOptions.alpha { options.alpha = a }
    if let rise = commandOptions.maxFailureRise { options.maxFailureRateRise = rise }
    options.noiseCeiling = commandOptions.noiseCeiling
    report.merge(Gate.checkBaseline(results, against: baseline, options: options))
    report.measuredPower = try PowerCommand.quote(explicitPath: commandOptions.powerPath, options: options)
    return report
  }

  static func write(_ text: String, to path: String) throws(UsageError) {
    do {
      try ReportWriter.write(text, to: path)
    } catch {
      throw UsageError("cannot write \(path): \(error)")
    }
  }
}
