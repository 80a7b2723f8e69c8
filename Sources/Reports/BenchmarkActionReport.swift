import Foundation
import ResultsSchema
import RunAnalysis
import Statistics

/// The "customSmallerIsBetter" JSON that common benchmark-tracking CI actions read
/// (e.g. github-action-benchmark): an array of `{name, unit, value, range?, extra?}`.
/// One entry per cell and phase: value = median (ms), range = "± 1.4826·MAD" (ms), extra = p90, n.
public enum BenchmarkActionReport {
  /// The JSON text.
  public static func json(results: BenchResults) -> String {
    var items: [[String: Any]] = []
    for cell in results.orderedCells {
      let key = CellKey(cell)
      for phase in cell.phaseNames {
        let samples = cell.samples(for: phase)
        guard !samples.isEmpty else { continue }
        let summary = cell.phases[phase] ?? Statistics.summarize(samples)
        let spread = 1.4826 * Statistics.medianAbsoluteDeviation(samples)
        items.append([
          "name": "\(phase) \(key.name)", "unit": "ms", "value": rounded(summary.p50),
          "range": "± \(NumberFormat.ms(spread))",
          "extra":
            "p90 \(NumberFormat.ms(summary.p90)) ms, n = \(summary.n), failed runs \(cell.failed), camera \(cell.camera)",
        ])
      }
    }
    let data =
      (try? JSONSerialization.data(
        withJSONObject: items, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  static func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
