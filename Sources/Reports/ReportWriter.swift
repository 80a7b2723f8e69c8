import Foundation
import Gates
import ResultsSchema

/// Writes the reports of a results file into files or a results folder.
public enum ReportWriter {
  /// The file names `writeAll` uses inside a results folder.
  public static let plotFileName = "plot.svg"
  /// The trace viewer file.
  public static let traceFileName = "trace.json"
  /// The Markdown summary.
  public static let summaryFileName = "summary.md"

  /// Writes `plot.svg`, `trace.json` and `summary.md` into `folder` (atomically, each).
  /// What every `bench` run calls after writing `results.json`.
  /// - Throws: `ResultsFileError` naming the file that could not be written.
  public static func writeAll(results: BenchResults, folder: String, gate: GateReport? = nil) throws {
    let base = URL(fileURLWithPath: folder)
    try write(SVGPlot.svg(results: results), to: base.appendingPathComponent(plotFileName).path)
    try write(TraceExport.json(results: results), to: base.appendingPathComponent(traceFileName).path)
    try write(
      MarkdownReport.summary(results: results, gate: gate),
      to: base.appendingPathComponent(summaryFileName).path)
  }

  /// Writes `text` to `path` atomically.
  public static func write(_ text: String, to path: String) throws {
    try ResultsFile.replaceAtomically(Data(text.utf8), to: path)
  }
}
