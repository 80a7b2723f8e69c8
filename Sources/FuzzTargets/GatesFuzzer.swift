import Foundation
import Gates
import Reports
import TestSupport

/// Gates files, as `bench gate --gates FILE` reads them: a refused file is one line naming it;
/// accepted definitions run against a small fixed results file (baseline and relative gates),
/// and the gate's JUnit must be well-formed XML.
enum GatesFuzzer {
  static let results = SyntheticResults.make(conditions: ["cold", "warm"], runs: 6, failEvery: 5)

  static func run(_ data: [UInt8]) -> [String] {
    let definitions: GateDefinitions
    do {
      definitions = try GateDefinitions.decode(Data(data), name: "gates.json")
    } catch {
      return OneLine.check(error.message, naming: "gates.json", what: "gates error")
    }
    var options = Gate.BaselineOptions(resamples: ResultsFuzzer.resamples)
    if let section = definitions.baseline { options.apply(section) }
    var report = Gate.checkBaseline(results, against: results, options: options)
    report.outcomes += Gate.checkRelative(
      definitions.relative ?? [], results: results, resamples: ResultsFuzzer.resamples)
    _ = MarkdownReport.gateSection(report)
    return XMLCheck.problems(in: JUnitReport.xml(gate: report), name: "the gate's JUnit")
  }
}
