import BenchCommands
import BenchHistory
import Foundation
import ResultsSchema
import TestSupport
import Testing

/// The history tests' shared helpers: a fresh SQLite path in a temporary folder, results whose
/// first frames are known, and why a suite is skipped where libsqlite3 is missing.
enum HistoryFixtures {
  /// Why the SQLite suites are skipped here.
  static let skipReason: Comment =
    "libsqlite3.so.0 is missing (Debian package libsqlite3-0): SQLite history tests skipped"

  /// A database path in a new temporary folder (the folder is not created for the file: the
  /// store makes the file itself).
  static func databasePath() -> String { temporaryFolder("history") + "/history.sqlite" }

  /// Results with one warm/deferred cell whose first frames are `firstFrames` (nil: a failed
  /// run), started at `startedAt`, on host `hostname` with machine id `machineId`.
  static func results(
    _ firstFrames: [Double?], startedAt: String = "2026-12-01T10:00:00Z", hostname: String = "bench-1",
    machineId: String = "0123456789abcdef", seed: UInt64 = 42
  ) -> BenchResults {
    var results = SyntheticResults.explicit(
      [.init(config: "deferred", condition: "warm", firstFrames: firstFrames)], seed: seed)
    results.settings.startedAt = startedAt
    results.host.hostname = hostname
    results.host.machineId = machineId
    return results
  }

  /// Writes `results` to `name` in `folder`; returns the path.
  static func write(_ results: BenchResults, named name: String, in folder: String) throws -> String {
    let path = folder + "/" + name
    try ResultsFile.save(results, to: path)
    return path
  }

  /// Runs `bench history` in-process with `arguments`: the exit status, stdout and stderr.
  static func run(_ arguments: [String]) -> (status: Int32, output: String, errors: String) {
    var output = ""
    var errors = ""
    let status = HistoryCommand.run(arguments, output: &output, errors: &errors)
    return (status, output, errors)
  }
}
