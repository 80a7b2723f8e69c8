import CommandLineKit
import Foundation
import HistoryAnalysis
import ResultsSchema
import Statistics

extension HistoryBenchmarkTool {
  /// Prints the accuracy table for each noise scale.
  static func accuracy(_ options: Options, output: inout some TextOutputStream) throws(UsageError) -> Int32 {
    let results: BenchResults
    do {
      results = try ResultsFile.load(path: options.file, timelines: .none)
    } catch {
      throw UsageError("cannot read \(options.file): \(error)")
    }
    let parts = options.cell.split(separator: "/").map(String.init)
    guard parts.count == 2,
      let cell = results.cells.first(where: { $0.condition == parts[0] && $0.config == parts[1] })
    else { throw UsageError("\(options.file) has no cell \(options.cell)") }
    let runs = cell.records.filter(\.ok).compactMap { $0.phases[options.phase] }.filter(\.isFinite)
    guard runs.count >= 2 else {
      throw UsageError("\(options.file) \(options.cell) has fewer than 2 ok runs with \(options.phase)")
    }
    let perPoint = options.runsPerPoint ?? runs.count
    let median = Statistics.median(runs)
    let sorted = runs.sorted()
    let iqr = sorted[sorted.count * 3 / 4] - sorted[sorted.count / 4]
    output.write(
      "noise: \(options.file) \(options.cell) \(options.phase): \(runs.count) ok runs, median \(fixed(median, 1)) ms, "
        + "IQR \(fixed(iqr / median * 100, 2)) % of it; a point is the median of \(perPoint) runs drawn from them\n"
    )
    output.write(
      "detector: alpha \(options.detect.alpha), \(options.detect.permutations) permutations, minimum segment \(options.detect.minimumSegment); "
        + "\(options.series) flat 60-point and \(options.series) stepped 30-point series (5 % step at a point drawn from 5…25)\n\n"
    )
    output.write(
      "noise ×  point spread  flat series with a change (goal ≤ 1 %)  steps found ±1 (goal ≥ 90 %)  "
        + "location error −2− −1  0  +1  +2+  none  extra points  seconds\n")
    for scale in options.noiseScales {
      var simulation = HistoryDetectionAccuracy(runs: runs, runsPerPoint: perPoint)
      simulation.noiseScale = scale
      simulation.flatSeries = options.series
      simulation.stepSeries = options.series
      let clock = ContinuousClock()
      let start = clock.now
      let outcome = simulation.measure(options: options.detect)
      let seconds = (clock.now - start) / .seconds(1)
      output.write(row(scale, outcome, series: options.series, seconds: seconds) + "\n")
    }
    return 0
  }

  /// One line of the table.
  static func row(_ scale: Double, _ r: HistoryDetectionAccuracy.Outcome, series: Int, seconds: Double)
    -> String
  {
    func percent(_ k: Int) -> String { "\(k) of \(series) (\(fixed(Double(k) / Double(series) * 100, 1)) %)" }
    func count(_ where_: (Int?) -> Bool) -> Int { r.locationErrors.filter(where_).count }
    let errors = [
      count { $0.map { $0 <= -2 } ?? false }, count { $0 == -1 }, count { $0 == 0 }, count { $0 == 1 },
      count { $0.map { $0 >= 2 } ?? false }, count { $0 == nil },
    ]
    return pad(fixed(scale, 1), 7) + "  " + pad(fixed(r.pointSpread * 100, 2) + " %", 12)
      + "  " + pad(percent(r.flatWithChange) + ", \(r.falseChangePoints) points", 39) + "  "
      + pad(percent(r.found), 28) + "  " + errors.map { pad(String($0), 4) }.joined(separator: " ")
      + "  " + pad(String(r.extraChangePoints), 12) + "  " + fixed(seconds, 1)
  }

  /// `v` with `decimals` decimals.
  static func fixed(_ v: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", v) }

  /// `s` right-aligned in `width` characters.
  static func pad(_ s: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - s.count)) + s
  }
}
