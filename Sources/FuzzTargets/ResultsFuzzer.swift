import Foundation
import Gates
import Reports
import ResultsSchema

/// Results and baseline files, as `bench compare`, `gate`, `baseline` and `report` read them: a
/// refused file is one line naming it; an accepted one goes through every analysis and report
/// (comparison with itself, the baseline gate against itself, tables, Markdown, SVG, JUnit,
/// the trace export), its SVG and JUnit must be well-formed XML, and written back it must load
/// again.
enum ResultsFuzzer {
  /// Few bootstrap resamples: the statistics are not what is fuzzed, the inputs they get are.
  static let resamples = 50

  static func run(_ data: [UInt8]) -> [String] {
    let results: BenchResults
    do {
      results = try ResultsFile.decode(Data(data), name: "fuzz.json")
    } catch {
      return OneLine.check(error.message, naming: "fuzz.json", what: "results error")
    }
    var problems: [String] = []
    let comparisons = Comparator.compare(results, results, options: ComparisonOptions(resamples: resamples))
    _ = ComparisonTable.text(comparisons, a: "a", b: "b", options: ComparisonOptions(resamples: resamples))
    _ = ComparisonTable.json(comparisons, a: "a", b: "b", options: ComparisonOptions(resamples: resamples))
    _ = Comparator.headlines(results)
    let gate = Gate.checkBaseline(
      results, against: results, options: Gate.BaselineOptions(resamples: resamples))
    _ = MarkdownReport.summary(results: results, gate: gate)
    _ = ResultsTable.text(results)
    _ = ResultsTable.csv(results)
    _ = BenchmarkActionReport.json(results: results)
    _ = TraceExport.json(results: results)
    problems += XMLCheck.problems(in: SVGPlot.svg(results: results), name: "plot.svg")
    problems += XMLCheck.problems(in: JUnitReport.xml(results: results), name: "the results' JUnit")
    problems += XMLCheck.problems(in: JUnitReport.xml(gate: gate), name: "the gate's JUnit")
    do {
      _ = try ResultsFile.decode(try ResultsFile.encode(results), name: "again.json")
    } catch {
      problems.append("an accepted results file, written back, is refused: \(error)")
    }
    return problems
  }
}
