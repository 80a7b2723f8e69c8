import BenchKit
import Foundation
import Gates
import Reports
import ResultsSchema

/// `bench report RESULTS.json`: plots, traces and summaries for people and for tools.
package enum ReportCommand: Command {
  /// The command line, checked: the results file and the reports asked for (none: the defaults).
  package struct Options: Sendable {
    /// The results file.
    package var path: String
    /// The plot.
    package var svg: String?
    /// The Chrome/Perfetto trace.
    package var trace: String?
    /// The Markdown summary.
    package var markdown: String?
    /// The JUnit XML.
    package var junit: String?
    /// The customSmallerIsBetter JSON.
    package var jsonBench: String?
    /// Relative gates to include in the Markdown and JUnit reports.
    package var gates: String?
    /// `--states`: print the thread-states table (`ThreadStatesTable`) on the output.
    package var states = false
  }

  static let svg = Option<String?>("--svg", "FILE", "the plot", parser: .fileName)
  static let trace = Option<String?>(
    "--trace", "FILE", "Chrome/Perfetto trace-event JSON of one median run per cell", parser: .fileName)
  static let markdown = Option<String?>(
    "--markdown", "FILE", "a Markdown summary (fit for $GITHUB_STEP_SUMMARY)", parser: .fileName)
  static let junit = Option<String?>(
    "--junit", "FILE", "JUnit XML: one test case per cell (or per gate check with --gates)", parser: .fileName
  )
  static let jsonBench = Option<String?>(
    "--json-bench", "FILE", "customSmallerIsBetter JSON: [{name, unit, value, range, extra}]",
    parser: .fileName)
  static let gates = Option<String?>(
    "--gates", "FILE", "include these relative gates in the Markdown and JUnit reports", parser: .fileName)
  static let states = Flag(
    "--states",
    "print where each cell's threads spent each phase (thread_states, p50 (p90)); writes no file unless asked"
  )

  /// The option table (parser and `--help`).
  package static let spec = CommandLineSpec(
    command: "bench report",
    synopsis:
      "RESULTS.json|FOLDER [--svg FILE] [--trace FILE] [--markdown FILE] [--junit FILE] [--json-bench FILE]"
      + " [--states]",
    summary: """
      Writes reports of a results file. Without any output option, writes plot.svg, trace.json and
      summary.md next to RESULTS.json. The SVG shows the first_frame_observed distribution per cell,
      a timeline of one median run per configuration and every phase per cell; the trace opens in
      ui.perfetto.dev; the JSON bench file is the customSmallerIsBetter format of benchmark-tracking
      CI actions. Given a results folder (or its journal.jsonl) whose run journal has no final
      results — a bench killed before its final save, or one still running — first rebuilds
      results.json from the journal ("complete": false). --states prints, per cell and phase, the
      distributions of the runs' thread states (the main thread's running, runnable, io and
      sleeping; the process tree's CPU, run-queue and I/O time, faults and switches), exact and
      sampled runs in separate blocks, incomplete runs set aside; it writes no file unless output
      options are given too. With thread states, the SVG and the trace show them as well.
      """,
    options: [svg, trace, markdown, junit, jsonBench, gates, states],
    epilogue:
      "exit status: 0 written, 2 bad usage, unreadable results, a file that cannot be written, or --states"
      + " with results that have no thread states")

  /// Checks the command line: one results file.
  package static func options(from parsed: ParsedOptions) throws(UsageError) -> Options {
    Options(
      path: try parsed.onlyResultsFile(), svg: try parsed.value(svg), trace: try parsed.value(trace),
      markdown: try parsed.value(markdown),
      junit: try parsed.value(junit), jsonBench: try parsed.value(jsonBench), gates: try parsed.value(gates),
      states: parsed.isSet(states))
  }

  /// Writes the reports and names each file written on `output`; with `--states`, first prints the
  /// thread-states table there (and writes no default file).
  /// - Throws: `UsageError` for unreadable results or gates, or a file that cannot be written.
  package static func execute(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let path = try resultsPath(rebuildingFrom: options.path, output: &output)
    // The reports show one representative run per cell: only those runs' timelines are kept.
    let results = try UsageError.reading { () throws(ResultsFileError) in
      try ResultsFile.load(path: path, timelines: .representative)
    }
    var gate: GateReport?
    if let gatesPath = options.gates {
      let defs = try UsageError.reading { () throws(ResultsFileError) in
        try GateDefinitions.load(path: gatesPath)
      }
      gate = GateReport(outcomes: Gate.checkRelative(defs.relative ?? [], results: results))
    }
    var targets: [(String, () -> String)] = []
    if let f = options.svg { targets.append((f, { SVGPlot.svg(results: results) })) }
    if let f = options.trace { targets.append((f, { TraceExport.json(results: results) })) }
    if let f = options.markdown {
      targets.append((f, { MarkdownReport.summary(results: results, gate: gate) }))
    }
    if let f = options.junit {
      targets.append((f, { gate.map { JUnitReport.xml(gate: $0) } ?? JUnitReport.xml(results: results) }))
    }
    if let f = options.jsonBench {
      targets.append((f, { BenchmarkActionReport.json(results: results) }))
    }
    if options.states {
      // Checked before any file is written: the report asked for cannot be made.
      guard ThreadStatesSummary.hasThreadStates(results) else {
        throw UsageError(ThreadStatesTable.noThreadStates)
      }
      output.write(ThreadStatesTable.text(results))
    }
    if targets.isEmpty && !options.states {
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

  /// The results file `given` names (a results file, a results folder or its journal), rebuilt
  /// first from the folder's journal when that has no final results or results.json is missing.
  static func resultsPath(rebuildingFrom given: String, output: inout some TextOutputStream)
    throws(UsageError)
    -> String
  {
    var isFolder: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: given, isDirectory: &isFolder)
    let folder: String
    let path: String
    if exists && isFolder.boolValue {
      folder = given
      path = given + "/results.json"
    } else {
      folder = URL(fileURLWithPath: given).deletingLastPathComponent().path
      path = given.hasSuffix(".jsonl") ? folder + "/results.json" : given
    }
    let journalPath = folder + "/" + RunJournal.fileName
    guard FileManager.default.fileExists(atPath: journalPath) else { return path }
    let journal = try UsageError.reading { () throws(ResultsFileError) in
      try RunJournal.read(path: journalPath)
    }
    guard !journal.hasEnd || !FileManager.default.fileExists(atPath: path) else { return path }
    // A bench still writing there ends the journal itself; this is a snapshot.
    let running = ResultsFolder.isHeld(folder)
    do {
      try ResultsFolder.rebuild(from: journal, folder: folder, markEnded: !running && !journal.hasEnd)
    } catch {
      throw UsageError("cannot rebuild the results from \(journalPath): \(error)")
    }
    let runs = journal.results.cells.reduce(0) { $0 + $1.records.count }
    output.write(
      "rebuilt \(folder)/results.json from \(journalPath): \(runs) finished runs"
        + (running ? " so far (a bench is still writing there)" : "") + " (complete: false)\n")
    return folder + "/results.json"
  }
}
