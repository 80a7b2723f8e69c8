import Foundation
import HistoryAnalysis
import PhaseTrace

extension SQLiteHistoryStore {
  /// Records `benchmark` in one transaction: the benchmark, its cells, their runs and each run's
  /// phases, with four prepared statements reused for every row. A benchmark whose content hash
  /// is already there adds nothing.
  /// - Throws: `HistoryError` when the database fails (the transaction is rolled back).
  package func record(_ benchmark: HistoryBenchmark) throws(HistoryError) -> HistoryRecordOutcome {
    try database.transaction { () throws(HistoryError) -> HistoryRecordOutcome in
      let existing = try database.prepare("SELECT id, commit_sha FROM benchmark WHERE content_hash = ?")
      try existing.bind([.text(benchmark.contentHash)])
      if try existing.step() {
        return .alreadyRecorded(id: existing.integer(0), commit: existing.text(1) ?? "")
      }
      try database.prepare(
        """
        INSERT INTO benchmark (content_hash, commit_sha, branch, time, machine, hostname, tool_version,
          settings, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
      ).run([
        .text(benchmark.contentHash), .text(benchmark.commit), .text(benchmark.branch), .text(benchmark.time),
        .text(benchmark.machine), .text(benchmark.hostname), .text(benchmark.toolVersion),
        .text(benchmark.settings), .text(HistoryTime.now()),
      ])
      let benchmarkID = database.lastInsertRowID
      let cell = try database.prepare(
        "INSERT INTO cell (benchmark_id, condition, config, camera, runs, failed) VALUES (?, ?, ?, ?, ?, ?)")
      let run = try database.prepare(
        "INSERT INTO run (cell_id, run, ok, error, counts) VALUES (?, ?, ?, ?, ?)")
      let phase = try database.prepare("INSERT INTO phase (run_id, phase, ms) VALUES (?, ?, ?)")
      for c in benchmark.cells {
        try cell.run([
          .integer(benchmarkID), .text(c.condition), .text(c.config), .text(c.camera),
          .integer(Int64(c.runs)),
          .integer(Int64(c.failed)),
        ])
        let cellID = database.lastInsertRowID
        for r in c.records {
          try run.run([
            .integer(cellID), .integer(Int64(r.run)), .integer(r.ok ? 1 : 0),
            r.error.map { .text($0) } ?? .null,
            .text(Self.countsJSON(r.counts)),
          ])
          let runID = database.lastInsertRowID
          for (name, ms) in r.phases where ms.isFinite {
            try phase.run([.integer(runID), .text(name), .real(ms)])
          }
        }
      }
      return .added(id: benchmarkID)
    }
  }

  /// A run's counts as JSON with sorted keys (`{"stale_frames":0}`).
  package static func countsJSON(_ counts: [String: Int]) -> String {
    var json = "{"
    for (i, (key, value)) in counts.sorted(by: { $0.key < $1.key }).enumerated() {
      if i > 0 { json += "," }
      TraceLineEncoder.appendString(key, to: &json)
      json += ":\(value)"
    }
    return json + "}"
  }
}
