import BenchHistory
import BenchKit
import CommandLineKit
import Foundation
import HistoryAnalysis
import ResultsSchema

extension HistoryCommand {
  /// Records each benchmark (read from the file at the same place in `paths`), in order: one
  /// line per file, `recorded` (with the seconds the transaction took) or `already recorded`.
  /// - Throws: `HistoryError` when the database fails (files recorded before stay recorded).
  static func record(
    _ benchmarks: [HistoryBenchmark], from paths: [String], into store: any HistoryStore,
    output: inout some TextOutputStream
  ) throws(HistoryError) {
    for (benchmark, path) in zip(benchmarks, paths) {
      let clock = ContinuousClock()
      let start = clock.now
      let outcome = try store.record(benchmark)
      let runs = benchmark.cells.reduce(0) { $0 + $1.records.count }
      let seconds = (clock.now - start) / .seconds(1)
      switch outcome {
      case .added(let id):
        output.write(
          "recorded \(path): benchmark \(id), commit \(benchmark.commit.prefix(12)), \(benchmark.time), machine \(benchmark.hostname) \(HistoryReport.short(benchmark.machine)), \(benchmark.cells.count) cells, \(runs) runs (\(String(format: "%.2f", seconds)) s)\n"
        )
      case .alreadyRecorded(let id, let commit):
        output.write(
          "already recorded \(path): benchmark \(id), commit \(commit.prefix(12)); nothing added\n")
      }
    }
  }

  /// The benchmark in the results file at `path`, with the commit, branch and time to record:
  /// `--commit` and `--branch` when given, else the ones results.json records (`tool.commit`,
  /// `tool.branch`; a file's branch goes with its commit only).
  /// - Throws: `UsageError` when the file cannot be read, is not a finished benchmark's
  ///   (`complete` false, `settings.interrupted`), or records no commit and none was given.
  static func load(_ path: String, options: Options) throws(UsageError) -> HistoryBenchmark {
    let results = try UsageError.reading { () throws(ResultsFileError) in
      try ResultsFile.load(path: path, timelines: .none)
    }
    if results.complete == false {
      throw UsageError(
        "\(path) is not a finished benchmark's results (complete: false: a snapshot, or rebuilt from the journal of a bench that died); record the final results.json"
      )
    }
    if results.settings.interrupted {
      throw UsageError(
        "\(path) is an interrupted benchmark's results (settings.interrupted: Ctrl-C or a fault stopped it early); record a benchmark that ran to its end"
      )
    }
    guard let commit = options.commit ?? results.tool.commit else {
      throw UsageError(
        "\(path) records no commit (tool.commit): give it with --commit SHA (e.g. --commit $(git rev-parse HEAD))"
      )
    }
    let branch = options.branch ?? (options.commit == nil ? results.tool.branch : nil) ?? ""
    return HistoryBenchmark(results: results, commit: commit, branch: branch, time: options.time)
  }
}
