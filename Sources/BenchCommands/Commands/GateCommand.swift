import BenchAnalysis
import BenchKit
import Foundation
import LaunchContract
import ResultsSchema

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
    /// `--max-failure-rise`, as a fraction of the runs, when given (otherwise the gates file's
    /// `baseline.failure_rate.max_rise_pct` or the default, 5 points).
    package var maxFailureRise: Double? = nil
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
    "--force", "compare against a baseline from another camera, profile, display path or tool version")
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

  static let maxFailureRise = Option<Double?>(
    "--max-failure-rise", "PCT",
    "largest rise in a cell's failed runs over the baseline's, in percentage points, that passes",
    shownAs: "5",
    parser: .number(in: NumberRange(atLeast: 0, atMost: 100)))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench gate", synopsis: "[--baseline BASE.json] [--gates FILE] RESULTS.json [options]",
    summary: """
      Fails (exit 1) exactly when a gated phase of some cell is slower than the baseline beyond its
      threshold AND significantly so (two-sided Mann–Whitney p < alpha), naming each failing phase
      with its medians, ratio, 95 % CI and p. Gated by default: first_frame_observed, plus the phases
      listed in the gates file or given with --threshold PHASE=PCT. With --gates, also checks the
      relative gates of that file (ratios between configurations of the same run), which hold on any
      machine. Failed runs rank after every finished run, and a cell's share of failed runs rising
      more than --max-failure-rise points over the baseline's (or significantly, by Fisher's exact
      test) fails by itself. A baseline from another camera, profile, display path or tool version
      is refused unless --force.
      """,
    options: [
      baseline, gates, threshold, alpha, maxFailureRise, force, junit, markdown, quiet, power, inconclusive,
    ],
    epilogue:
      "exit status: 0 every gate passed, 1 a regression (or a gated cell without successful runs), 2 bad usage or input"
  )

  /// Checks the command line: one results file, and a baseline or a gates file to check it with.
  package static func options(from o: ParsedOptions) throws(UsageError) -> Options {
    guard o.positional.count == 1 else {
      throw UsageError("wants one results file after the options (got \(o.positional.count))")
    }
    guard !o.positional[0].isEmpty else { throw UsageError("wants one results file, not an empty name") }
    let baselinePath = try o.value(baseline)
    let gatesPath = try o.value(gates)
    guard baselinePath != nil || gatesPath != nil else {
      throw UsageError("nothing to check: give --baseline BASE.json and/or --gates FILE")
    }
    return Options(
      resultsPath: o.positional[0], baselinePath: baselinePath, gatesPath: gatesPath,
      thresholds: try o.value(threshold), alpha: try o.value(alpha), force: o.isSet(force),
      junitPath: try o.value(junit), markdownPath: try o.value(markdown), quiet: o.isSet(quiet),
      powerPath: try o.value(power), inconclusive: try o.value(inconclusive),
      maxFailureRise: try o.value(maxFailureRise).map { $0 / 100 })
  }

  /// Checks the results and writes one line per check and the verdict to `output`. Returns 0
  /// when every gate passed, 1 on a regression.
  /// - Throws: `UsageError` for an unreadable file, a foreign baseline without `--force`, or a
  ///   report that cannot be written.
  package static func execute(
    _ o: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let (baselinePath, gatesPath, alphaOverride) = (o.baselinePath, o.gatesPath, o.alpha)
    // Gates read samples only: the runs' timelines are skipped. The results and the baseline
    // are read at once (the results' error, then the gates file's, then the baseline's).
    let loaded = ResultsFile.loadConcurrently(
      [o.resultsPath] + (baselinePath.map { [$0] } ?? []), timelines: .none)
    let results = try loaded[0].mapError(UsageError.init).get()
    let definitions = try gatesPath.map { (p: String) throws(UsageError) in
      try UsageError.reading { () throws(ResultsFileError) in try GateDefinitions.load(path: p) }
    }

    var report = GateReport()
    if let baselinePath {
      let baseline = try loaded[1].mapError(UsageError.init).get()
      let reasons = Gate.incompatibilities(baseline: baseline, results: results)
      if !reasons.isEmpty {
        guard o.force else {
          throw UsageError(
            "baseline \(baselinePath) was measured differently (\(reasons.joined(separator: "; "))); record a new baseline with 'bench baseline save', or pass --force to compare anyway"
          )
        }
        report.warnings.append(
          "comparing against a foreign baseline (--force): \(reasons.joined(separator: "; "))")
      }
      var options = Gate.BaselineOptions()
      if let section = definitions?.baseline { options.apply(section) }
      if let d = o.thresholds.fallback { options.defaultThreshold = d }
      for (phase, t) in o.thresholds.perPhase.sorted(by: { $0.key < $1.key }) {
        options.thresholds[phase] = t
        if !options.phases.contains(phase) { options.phases.append(phase) }
      }
      if let a = alphaOverride { options.alpha = a }
      if let rise = o.maxFailureRise { options.maxFailureRateRise = rise }
      report.merge(Gate.checkBaseline(results, against: baseline, options: options))
      report.measuredPower = try PowerCommand.quote(explicitPath: o.powerPath, options: options)
    }
    if let definitions {
      report.outcomes += Gate.checkRelative(definitions.relative ?? [], results: results)
    }

    let quiet = o.quiet
    for outcome in report.outcomes where !quiet || Gate.fails(outcome.status, inconclusive: o.inconclusive) {
      output.write(outcome.line + "\n")
    }
    for warning in report.warnings { output.write("warning: \(warning)\n") }
    if !quiet, let measured = report.measuredPower { output.write("power: \(measured)\n") }
    if !quiet { for advice in report.advice { output.write("power: \(advice.summary)\n") } }
    let failed = report.outcomes.filter { Gate.fails($0.status, inconclusive: o.inconclusive) }
    let skipped = report.outcomes.filter { $0.status == .skipped }.count
    let inconclusive = report.outcomes.filter { $0.status == .inconclusive }.count
    if failed.isEmpty {
      output.write(
        "gate: passed (\(report.outcomes.count) checks, \(skipped) skipped, \(inconclusive) inconclusive)\n")
    } else {
      output.write(
        "gate: FAILED, \(failed.count) regression\(failed.count == 1 ? "" : "s"): \(failed.map(\.name).joined(separator: ", "))\n"
      )
    }
    if let path = o.junitPath { try write(JUnitReport.xml(gate: report), to: path) }
    if let path = o.markdownPath { try write(MarkdownReport.gateSection(report), to: path) }
    return failed.isEmpty ? 0 : 1
  }

  static func write(_ text: String, to path: String) throws(UsageError) {
    do {
      try ReportWriter.write(text, to: path)
    } catch {
      throw UsageError("cannot write \(path): \(error)")
    }
  }
}
