import Foundation
import Gates
import Reports
import ResultsSchema

extension PowerCommand {
  /// `bench power --relative GATES.json`: measures the file's relative gates on `results`' cells
  /// (``RelativeGatePower``) and writes the table or the JSON.
  /// - Throws: `UsageError` when the gates file cannot be read, holds no relative gate, or no gate
  ///   has both cells with enough runs.
  static func executeRelative(
    _ options: Options, gatesPath: String, results: BenchResults, output: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let definitions = try UsageError.reading { () throws(ResultsFileError) in
      try GateDefinitions.load(path: gatesPath)
    }
    let gates = definitions.relative ?? []
    guard !gates.isEmpty else { throw UsageError("\(gatesPath) holds no relative gate") }
    let n = options.runsPerSide ?? 3
    let report = RelativeGatePower.measure(
      results, gates: gates, runsPerCell: n, comparisons: options.comparisons,
      inconclusive: options.inconclusive)
    guard !report.gates.isEmpty else {
      throw UsageError(
        "\(options.path) has no relative gate's two cells with \(n) runs each (\(report.skipped.joined(separator: "; ")))"
      )
    }
    switch options.format {
    case .table: output.write(RelativePowerTable.text(report, source: options.path))
    case .json:
      writeJSON(report, to: &output)
    }
    return 0
  }
}
