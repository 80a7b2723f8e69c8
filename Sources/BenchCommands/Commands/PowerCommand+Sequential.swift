import Foundation
import Gates
import LaunchContract
import Reports
import ResultsSchema

extension PowerCommand {
  /// `bench power --sequential`: measures bench ab's sequential design (`Gate.sequentialDesign`,
  /// at most `--runs-per-side` a side, α split over `results`' cells) on `results`' cells, or with `--size` the smallest one
  /// meeting the goals (``SequentialSizing``), and writes the table or the JSON.
  /// - Throws: `UsageError` when no cell has 10 runs of the phase.
  static func executeSequential(
    _ options: Options, results: BenchResults, output: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    let phase = PhaseName.firstFrameObserved
    // α split over the results' cells, as the bench ab that recorded them split it.
    let design = Gate.sequentialDesign(
      maximumRuns: options.runsPerSide, cells: max(1, results.orderedCells.count))
    guard
      let sizing = SequentialSizing.measure(
        results, design: design, phase: phase, goals: options.goals, size: options.size,
        comparisons: options.comparisons)
    else {
      throw UsageError(
        "\(options.path) has no cell with 10 runs of \(phase) to resample (run bench with --runs 60)")
    }
    switch options.format {
    case .table: output.write(SequentialPowerTable.text(sizing, source: options.path, phase: phase))
    case .json:
      writeJSON(sizing, to: &output)
    }
    return 0
  }
}
