import HistoryAnalysis
import RunAnalysis
import PhaseTrace

extension SQLHistoryStore {
  /// Records `benchmark` in one transaction: the benchmark row (unique by content hash), then
  /// per cell its row, its runs (their ids taken first) and their phases, inserted as the
  /// dialect inserts many rows (a prepared statement a row, or one statement over arrays). A
  /// benchmark already there, or recorded by another machine meanwhile (the insert meets the
  /// unique content hash: `ON CONFLICT DO NOTHING`), adds nothing and is named.
  /// - Throws: `HistoryError` when the database fails (the transaction is rolled back).
  package func record(_ benchmark: HistoryBenchmark) throws(HistoryError) -> HistoryRecordOutcome {
    try connection.transaction { () throws(HistoryError) -> HistoryRecordOutcome in
      // Looked up first, so that recording known results draws no id and ids stay 1, 2, 3…
      if let earlier = try existing(benchmark.contentHash) { return earlier }
      let inserted = try connection.insert(
        """
        INSERT INTO benchmark (content_hash, commit_sha, branch, time, machine, hostname, tool_version,
          settings, recorded_at) VALUES (\(connection.dialect.parameters(Array(repeating: .text, count: 9))))
        ON CONFLICT (content_hash) DO NOTHING
        """,
        [
          benchmark.contentHash, benchmark.commit, benchmark.branch, benchmark.time, benchmark.machine,
          benchmark.hostname, benchmark.toolVersion, benchmark.settings, HistoryTime.now(),
        ].map { .text($0) })
      guard let benchmarkID = inserted else {
        // Another recorder committed the same results between the lookup and the insert.
        return try existing(benchmark.contentHash) ?? .alreadyRecorded(id: 0, commit: "")
      }
      for cell in benchmark.cells { try insert(cell, benchmarkID: benchmarkID) }
      return .added(id: benchmarkID)
    }
  }

  /// The benchmark recorded with `contentHash`, if any.
  private func existing(_ contentHash: String) throws(HistoryError) -> HistoryRecordOutcome? {
    let found = try connection.select(
      "SELECT id, commit_sha FROM benchmark WHERE content_hash = \(connection.dialect.parameter(1, .text))",
      [.text(contentHash)])
    guard try found.next() else { return nil }
    return .alreadyRecorded(id: found.integer(0), commit: found.text(1) ?? "")
  }

  /// Inserts `cell` of benchmark `benchmarkID`, its runs and their finite phases.
  private func insert(_ cell: HistoryCell, benchmarkID: Int64) throws(HistoryError) {
    let dialect = connection.dialect
    let inserted = try connection.insert(
      """
      INSERT INTO cell (benchmark_id, condition, config, camera, runs, failed)
      VALUES (\(dialect.parameters([.bigint, .text, .text, .text, .integer, .integer])))
      """,
      [
        .integer(benchmarkID), .text(cell.condition), .text(cell.config), .text(cell.camera),
        .integer(Int64(cell.runs)), .integer(Int64(cell.failed)),
      ])
    guard let cellID = inserted else {
      throw HistoryError(.statementFailed, "the history database \(connection.name) added no row for a cell")
    }
    guard !cell.records.isEmpty else { return }
    let ids = try runIDs(count: cell.records.count)
    var runs: [[SQLValue]] = []
    var phases: [[SQLValue]] = []
    for (id, run) in zip(ids, cell.records) {
      runs.append([
        .integer(id), .integer(cellID), .integer(Int64(run.run)), .integer(run.ok ? 1 : 0),
        run.error.map { .text($0) } ?? .null, .text(Self.countsJSON(run.counts)),
      ])
      for (name, ms) in run.phases.sorted(by: { $0.key < $1.key }) where ms.isFinite {
        phases.append([.integer(id), .text(name), .real(ms)])
      }
    }
    let runColumns: [(name: String, type: SQLType)] = [
      ("id", .bigint), ("cell_id", .bigint), ("run", .integer), ("ok", .integer), ("error", .text),
      ("counts", .text),
    ]
    for statement in dialect.insert(into: "run", columns: runColumns, rows: runs) {
      try connection.run(statement.sql, statement.values)
    }
    guard !phases.isEmpty else { return }
    let phaseColumns: [(name: String, type: SQLType)] = [
      ("run_id", .bigint), ("phase", .text), ("ms", .double),
    ]
    for statement in dialect.insert(into: "phase", columns: phaseColumns, rows: phases) {
      try connection.run(statement.sql, statement.values)
    }
  }

  /// `count` ids for the runs about to be inserted, taken as the dialect takes them.
  private func runIDs(count: Int) throws(HistoryError) -> [Int64] {
    let next = connection.dialect.nextIDs(of: "run", count: count)
    let rows = try connection.select(next.sql, next.values)
    var ids: [Int64] = []
    ids.reserveCapacity(count)
    while try rows.next() { ids.append(rows.integer(0)) }
    guard ids.count == count else {
      throw HistoryError(
        .statementFailed,
        "the history database \(connection.name) gave \(ids.count) run ids for \(count) runs")
    }
    return ids
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
