import BenchAnalysis
import Foundation
import LaunchContract

/// `bench gate`: the CI gate. Exit 0 pass, 1 regression, 2 bad input.
public enum GateCommand: BenchSubcommand {
  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench gate", synopsis: "[--baseline BASE.json] [--gates FILE] RESULTS.json [options]",
    summary: """
      Fails (exit 1) exactly when a gated phase of some cell is slower than the baseline beyond its
      threshold AND significantly so (two-sided Mann–Whitney p < alpha), naming each failing phase
      with its medians, ratio, 95 % CI and p. Gated by default: first_frame_observed, plus the phases
      listed in the gates file or given with --threshold PHASE=PCT. With --gates, also checks the
      relative gates of that file (ratios between configurations of the same run), which hold on any
      machine. A baseline from another camera, profile or tool version is refused unless --force.
      """,
    options: [
      .value("--baseline", "FILE", "the baseline results file to compare against"),
      .value("--gates", "FILE", "gate definitions (firstframe.gates/1), e.g. Benchmarks/gates.json"),
      .value(
        "--threshold", "SPEC", "PCT, or PHASE=PCT[,PHASE=PCT…]: allowed slowdown in percent", default: "5"),
      .value("--alpha", "P", "significance level a regression must reach", default: "0.01"),
      .flag("--force", "compare against a baseline from another camera, profile or tool version"),
      .value("--junit", "FILE", "also write JUnit XML (each check a test case)"),
      .value("--markdown", "FILE", "also write a Markdown summary of the checks"),
      .flag("--quiet", "print only failures and the verdict"),
    ],
    epilogue:
      "exit status: 0 every gate passed, 1 a regression (or a gated cell without successful runs), 2 bad usage or input"
  )

  /// Parses `--threshold`: `5`, or `first_frame_observed=5,start_running=10` (percent).
  /// Returns the default (nil when not given) and per-phase values, as fractions.
  static func parseThresholds(_ raw: String?) throws(UsageError) -> (Double?, [String: Double]) {
    guard let raw else { return (nil, [:]) }
    var fallback: Double?
    var perPhase: [String: Double] = [:]
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
        perPhase[parts[0]] = pct / 100
      } else {
        fallback = pct / 100
      }
    }
    return (fallback, perPhase)
  }

  public static func execute(_ o: ParsedOptions, output: inout some TextOutputStream) throws(UsageError)
    -> Int32
  {
    guard o.positional.count == 1 else {
      throw UsageError("wants one results file after the options (got \(o.positional.count))")
    }
    let baselinePath = o.value("--baseline")
    let gatesPath = o.value("--gates")
    guard baselinePath != nil || gatesPath != nil else {
      throw UsageError("nothing to check: give --baseline BASE.json and/or --gates FILE")
    }
    let (defaultThreshold, phaseThresholds) = try parseThresholds(o.value("--threshold"))
    let alphaOverride: Double? = o.value("--alpha") == nil ? nil : try o.double("--alpha", default: 0.01)
    if let a = alphaOverride, a >= 1 { throw UsageError("--alpha must be below 1") }
    let results = try ResultsFile.load(path: o.positional[0])
    let definitions = try gatesPath.map { (p: String) throws(UsageError) in try GateDefinitions.load(path: p)
    }

    var report = GateReport()
    if let baselinePath {
      let baseline = try ResultsFile.load(path: baselinePath)
      let reasons = Gate.incompatibilities(baseline: baseline, results: results)
      if !reasons.isEmpty {
        guard o.has("--force") else {
          throw UsageError(
            "baseline \(baselinePath) was measured differently (\(reasons.joined(separator: "; "))); record a new baseline with 'bench baseline save', or pass --force to compare anyway"
          )
        }
        report.warnings.append(
          "comparing against a foreign baseline (--force): \(reasons.joined(separator: "; "))")
      }
      var options = Gate.BaselineOptions()
      if let section = definitions?.baseline { options.apply(section) }
      if let d = defaultThreshold { options.defaultThreshold = d }
      for (phase, t) in phaseThresholds.sorted(by: { $0.key < $1.key }) {
        options.thresholds[phase] = t
        if !options.phases.contains(phase) { options.phases.append(phase) }
      }
      if let a = alphaOverride { options.alpha = a }
      report.merge(Gate.checkBaseline(results, against: baseline, options: options))
    }
    if let definitions {
      report.outcomes += Gate.checkRelative(definitions.relative ?? [], results: results)
    }

    let quiet = o.has("--quiet")
    for outcome in report.outcomes where !quiet || outcome.status == .fail {
      output.write(outcome.line + "\n")
    }
    for warning in report.warnings { output.write("warning: \(warning)\n") }
    if !quiet { for advice in report.advice { output.write("power: \(advice.summary)\n") } }
    let failed = report.failures
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
    if let path = o.value("--junit") { try write(JUnitReport.xml(gate: report), to: path) }
    if let path = o.value("--markdown") { try write(MarkdownReport.gateSection(report), to: path) }
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
