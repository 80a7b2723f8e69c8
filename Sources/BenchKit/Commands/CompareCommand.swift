import BenchAnalysis
import LaunchContract
/// `bench compare A.json B.json`: every phase of every cell present in both files, as "B vs A".
public enum CompareCommand: BenchSubcommand {
  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench compare", synopsis: "A.json B.json [options]",
    summary: """
      Compares two results files, B against A (A is the reference, B the new one), for every phase
      and cell present in both (cells match by config, condition and camera). For each: the medians,
      the ratio median(B)/median(A) (below 1: B is faster), its percentile-bootstrap 95 % CI, the
      two-sided Mann–Whitney p-value, and a verdict: faster, slower or no significant difference
      (p < alpha and a change beyond the noise threshold).
      """,
    options: [
      .value(
        "--threshold", "PCT", "noise threshold in percent: smaller changes are no significant difference",
        default: "2"),
      .value("--alpha", "P", "significance level of the two-sided rank test", default: "0.05"),
      .value("--format", "FORMAT", "table, json or markdown", default: "table"),
      .value("--phases", "LIST", "only these phases (comma-separated)", default: "all"),
      .value(
        "--resamples", "N", "bootstrap resamples (at least 2000)", default: "\(Bootstrap.defaultResamples)"),
      .value("--seed", "N", "bootstrap seed (same seed, same intervals)", default: "fixed"),
    ],
    epilogue: "exit status: 0 compared, 2 bad usage or an unreadable results file")

  public static func execute(_ o: ParsedOptions, output: inout some TextOutputStream) throws(UsageError)
    -> Int32
  {
    guard o.positional.count == 2 else {
      throw UsageError("wants two results files, A.json and B.json (got \(o.positional.count) arguments)")
    }
    var options = ComparisonOptions()
    options.threshold = try o.double("--threshold", default: 2, allowZero: true) / 100
    options.alpha = try o.double("--alpha", default: 0.05)
    guard options.alpha < 1 else { throw UsageError("--alpha must be below 1") }
    options.resamples = try o.int("--resamples", default: Bootstrap.defaultResamples, minimum: 2000)
    if let raw = o.value("--seed") {
      guard let s = UInt64(raw) else { throw UsageError("--seed wants a whole number ≥ 0, not '\(raw)'") }
      options.seed = s
    }
    if o.value("--phases") != nil {
      options.phases = try o.list("--phases", allowed: PhaseName.all, default: PhaseName.all)
    }
    let format = try o.list("--format", allowed: ["table", "json", "markdown"], default: ["table"])
    guard format.count == 1 else { throw UsageError("--format takes one of table, json, markdown") }
    let pathA = o.positional[0]
    let pathB = o.positional[1]
    let a = try ResultsFile.load(path: pathA)
    let b = try ResultsFile.load(path: pathB)
    let comparisons = Comparator.compare(a, b, options: options)
    switch format[0] {
    case "json": output.write(ComparisonTable.json(comparisons, a: pathA, b: pathB, options: options))
    case "markdown": output.write(ComparisonTable.markdown(comparisons, a: pathA, b: pathB, options: options))
    default:
      output.write(ComparisonTable.text(comparisons, a: pathA, b: pathB, options: options))
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
