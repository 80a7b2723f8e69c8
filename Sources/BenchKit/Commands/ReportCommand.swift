import BenchAnalysis
import Foundation

/// `bench report RESULTS.json`: plots, traces and summaries for people and for tools.
public enum ReportCommand: BenchSubcommand {
  /// The option table (parser and `--help`).
  public static let spec = CommandLineSpec(
    command: "bench report",
    synopsis: "RESULTS.json [--svg FILE] [--trace FILE] [--markdown FILE] [--junit FILE] [--json-bench FILE]",
    summary: """
      Writes reports of a results file. Without any output option, writes plot.svg, trace.json and
      summary.md next to RESULTS.json. The SVG shows the first_frame_observed distribution per cell,
      a timeline of one median run per configuration and every phase per cell; the trace opens in
      ui.perfetto.dev; the JSON bench file is the customSmallerIsBetter format of benchmark-tracking
      CI actions.
      """,
    options: [
      .value("--svg", "FILE", "the plot"),
      .value("--trace", "FILE", "Chrome/Perfetto trace-event JSON of one median run per cell"),
      .value("--markdown", "FILE", "a Markdown summary (fit for $GITHUB_STEP_SUMMARY)"),
      .value("--junit", "FILE", "JUnit XML: one test case per cell (or per gate check with --gates)"),
      .value("--json-bench", "FILE", "customSmallerIsBetter JSON: [{name, unit, value, range, extra}]"),
      .value("--gates", "FILE", "include these relative gates in the Markdown and JUnit reports"),
    ],
    epilogue: "exit status: 0 written, 2 bad usage, unreadable results or a file that cannot be written")

  public static func execute(_ o: ParsedOptions, output: inout some TextOutputStream) throws(UsageError)
    -> Int32
  {
    guard o.positional.count == 1 else {
      throw UsageError("wants one results file (got \(o.positional.count) arguments)")
    }
    let path = o.positional[0]
    let results = try ResultsFile.load(path: path)
    var gate: GateReport?
    if let gatesPath = o.value("--gates") {
      let defs = try GateDefinitions.load(path: gatesPath)
      gate = GateReport(outcomes: Gate.checkRelative(defs.relative ?? [], results: results))
    }
    var targets: [(String, () -> String)] = []
    if let f = o.value("--svg") { targets.append((f, { SVGPlot.svg(results: results) })) }
    if let f = o.value("--trace") { targets.append((f, { TraceExport.json(results: results) })) }
    if let f = o.value("--markdown") {
      targets.append((f, { MarkdownReport.summary(results: results, gate: gate) }))
    }
    if let f = o.value("--junit") {
      targets.append((f, { gate.map { JUnitReport.xml(gate: $0) } ?? JUnitReport.xml(results: results) }))
    }
    if let f = o.value("--json-bench") {
      targets.append((f, { BenchmarkActionReport.json(results: results) }))
    }
    if targets.isEmpty {
      let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
      targets = [
        (folder.appendingPathComponent(ReportWriter.plotFileName).path, { SVGPlot.svg(results: results) }),
        (
          folder.appendingPathComponent(ReportWriter.traceFileName).path,
          { TraceExport.json(results: results) }
        ),
        (
          folder.appendingPathComponent(ReportWriter.summaryFileName).path,
          { MarkdownReport.summary(results: results, gate: gate) }
        ),
      ]
    }
    for (file, make) in targets {
      do {
        try ReportWriter.write(make(), to: file)
      } catch {
        throw UsageError("cannot write \(file): \(error)")
      }
      output.write("wrote \(file)\n")
    }
    return 0
  }
}
