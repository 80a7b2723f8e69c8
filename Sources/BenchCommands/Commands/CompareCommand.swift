import BenchKit
import Gates
import LaunchContract
import Reports
import ResultsSchema
/// `bench compare A.json B.json`: every phase of every cell present in both files, as "B vs A".
package enum CompareCommand: Command {
  /// The command line, checked.
  package struct Options: Sendable {
    /// The reference results file.
    package var pathA: String
    /// The new results file.
    package var pathB: String
    /// Threshold, alpha, resamples, seed and phases.
    package var comparison: ComparisonOptions
    /// What goes to stdout.
    package var format: Format
  }

  /// `--format`.
  package enum Format: String, Sendable, CaseIterable {
    /// A table for people.
    case table
    /// JSON for tools.
    case json
    /// Markdown (fit for `$GITHUB_STEP_SUMMARY`).
    case markdown
  }

  private static let defaults = ComparisonOptions()

  static let threshold = Option(
    "--threshold", "PCT", "noise threshold in percent: smaller changes are no significant difference",
    default: 2.0, parser: .number(in: NumberRange(atLeast: 0)))
  static let alpha = Option(
    "--alpha", "P", "significance level of the two-sided rank test", default: defaults.alpha,
    parser: .number(in: NumberRange(greaterThan: 0, below: 1)))
  static let format = Option(
    "--format", "FORMAT", "table, json or markdown", default: Format.table, parser: .choice())
  static let phases = Option<[String]?>(
    "--phases", "LIST", "only these phases (comma-separated)", shownAs: "all",
    parser: .list(of: PhaseName.all))
  // Each resample costs a copy and a sort of both samples: a million keeps a compare within minutes.
  static let resamples = Option(
    "--resamples", "N", "bootstrap resamples (at least 2000)", default: defaults.resamples,
    parser: .integer(in: 2000...1_000_000))
  static let seed = Option<UInt64?>(
    "--seed", "N", "bootstrap seed (same seed, same intervals)", shownAs: "fixed",
    parser: ValueParser(
      parse: { (text, name) throws(UsageError) -> UInt64 in
        guard let seed = UInt64(text) else {
          throw UsageError("\(name) wants a whole number ≥ 0, not '\(text)'")
        }
        return seed
      }, describe: { String($0) }))

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench compare", synopsis: "A.json B.json [options]",
    summary: """
      Compares two results files, B against A (A is the reference, B the new one), for every phase
      and cell present in both (cells match by config, condition and camera). For each: the medians,
      the ratio median(B)/median(A) (below 1: B is faster), its percentile-bootstrap 95 % CI, the
      two-sided Mann–Whitney p-value, and a verdict: faster, slower or no significant difference
      (p < alpha and a change beyond the noise threshold).
      """,
    options: [threshold, alpha, format, phases, resamples, seed],
    epilogue: "exit status: 0 compared, 2 bad usage or an unreadable results file")

  /// Checks the command line: two results files and the comparison's settings.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    guard parsed.positional.count == 2 else {
      throw UsageError(
        "wants two results files, A.json and B.json (got \(parsed.positional.count) arguments)")
    }
    guard !parsed.positional.contains("") else {
      throw UsageError("wants two results files, not an empty name")
    }
    var comparison = ComparisonOptions()
    comparison.threshold = try parsed.value(threshold) / 100
    comparison.alpha = try parsed.value(alpha)
    comparison.resamples = try parsed.value(resamples)
    if let s = try parsed.value(seed) { comparison.seed = s }
    if let p = try parsed.value(phases) { comparison.phases = p }
    return Options(
      pathA: parsed.positional[0], pathB: parsed.positional[1], comparison: comparison,
      format: try parsed.value(format))
  }

  /// Compares the two files and writes the comparison to `output`.
  /// - Throws: `UsageError` for an unreadable results file.
  package static func execute(
    _ commandOptions: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let (pathA, pathB, options) = (commandOptions.pathA, commandOptions.pathB, commandOptions.comparison)
    // Comparisons read samples only: the runs' timelines are skipped. Both files at once.
    let loaded = ResultsFile.loadConcurrently([pathA, pathB], timelines: .none)
    let a = try loaded[0].mapError(UsageError.init).get()
    let b = try loaded[1].mapError(UsageError.init).get()
    let comparisons = Comparator.compare(a, b, options: options)
    let timeouts = [a.settings.runTimeoutSeconds, b.settings.runTimeoutSeconds]
    switch commandOptions.format {
    case .json: output.write(ComparisonTable.json(comparisons, a: pathA, b: pathB, options: options))
    case .markdown:
      output.write(
        ComparisonTable.markdown(
          comparisons, a: pathA, b: pathB, options: options, runTimeoutSeconds: timeouts))
    case .table:
      output.write(
        ComparisonTable.text(comparisons, a: pathA, b: pathB, options: options, runTimeoutSeconds: timeouts))
      let unmatched = Comparator.unmatchedCells(a, b)
      if !unmatched.onlyA.isEmpty {
        output.write("only in A (not compared): \(unmatched.onlyA.joined(separator: ", "))\n")
      }
      if !unmatched.onlyB.isEmpty {
        output.write("only in B (not compared): \(unmatched.onlyB.joined(separator: ", "))\n")
      }
      if Gate.incompatibilities(baseline: a, results: b).count > 0 {
        output.write(
          "note: A and B differ in \(Gate.incompatibilities(baseline: a, results: b).joined(separator: "; "))\n"
        )
      }
    }
    return 0
  }
}
