import BenchHistory
import CommandLineKit
import Foundation
import HistoryAnalysis
import RunAnalysis
import Sampling
import Statistics

extension HistoryBenchmarkTool {
  /// The phases of the made-up runs: bench's own names, then numbered ones.
  static let phaseNames = [
    "first_frame_observed", "first_frame_presented", "process_launch", "app_main", "session_configured",
    "device_open", "stream_on", "first_buffer", "preview_ready", "outputs_ready",
  ]

  /// Records `options.benchmarks` made-up benchmarks into a new SQLite history at `options.file`: one machine,
  /// `options.cells` cells (4 conditions × configurations `config-N`), `options.runs` runs each with `options.phases`
  /// phases; each series' runs are its level × (1 + 3 % Gaussian noise), and one series in ten
  /// steps up 5 % at benchmark 70 % of the way.
  static func makeDatabase(
    _ options: Options, output: inout some TextOutputStream, errors: inout some TextOutputStream
  ) throws(UsageError) -> Int32 {
    guard !FileManager.default.fileExists(atPath: options.file) else {
      throw UsageError("\(options.file) exists: make-db writes a new one")
    }
    let conditions = ["cold", "warm", "relock", "loaded"]
    let phases = (0..<options.phases).map { $0 < phaseNames.count ? phaseNames[$0] : "phase_\($0)" }
    let clock = ContinuousClock()
    let start = clock.now
    do throws(HistoryError) {
      let store = try SQLiteHistoryStore(path: options.file)
      var rng = SplitMix64(seed: 26)
      let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
      for b in 0..<options.benchmarks {
        let cells = (0..<options.cells).map { c in
          HistoryCell(
            condition: conditions[c % 4], config: "config-\(c / 4)", camera: "synthetic", runs: options.runs,
            failed: 0,
            records: (1...options.runs).map { run in
              var values: [String: Double] = [:]
              for (p, name) in phases.enumerated() {
                let series = c * options.phases + p
                let stepped = series % 10 == 3 && b >= options.benchmarks * 7 / 10
                let level = Double(50 + 7 * series % 400) * (stepped ? 1.05 : 1)
                values[name] = level * (1 + 0.03 * rng.nextGaussian())
              }
              return HistoryRun(run: run, ok: true, phases: values)
            })
        }
        let benchmark = HistoryBenchmark(
          contentHash: "make-db:\(b)", commit: String(format: "%040x", b), branch: "main",
          time: HistoryTime.format(start.addingTimeInterval(Double(b) * 3600)),
          machine: "fnv1a64:00000000000000aa",
          hostname: "history-benchmark", toolVersion: "0", settings: "{}", cells: cells)
        _ = try store.record(benchmark)
      }
    } catch {
      errors.write("history-benchmark: \(error)\n")
      return 1
    }
    let seconds = (clock.now - start) / .seconds(1)
    output.write(
      "wrote \(options.file): \(options.benchmarks) benchmarks × \(options.cells) cells × \(options.runs) runs × \(options.phases) phases "
        + "in \(String(format: "%.1f", seconds)) s\n")
    return 0
  }
}
