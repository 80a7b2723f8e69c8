import HistoryAnalysis

extension PostgreSQLHistoryStore {
  /// Records `benchmark` in one transaction: the benchmark row (unique by content hash), then per
  /// cell its row, its runs and their phases in one statement each (`unnest` over arrays, run ids
  /// drawn from the sequence first), so a cell of thousands of runs is three round trips. A
  /// benchmark already there, or recorded by another machine meanwhile (the insert meets the
  /// unique content hash: `ON CONFLICT DO NOTHING`), adds nothing and is named.
  /// - Throws: `HistoryError` when the server fails (the transaction is rolled back).
  package func record(_ benchmark: HistoryBenchmark) throws(HistoryError) -> HistoryRecordOutcome {
    try connection.transaction { () throws(HistoryError) -> HistoryRecordOutcome in
      // Looked up first, so that recording known results draws no id from the sequence and ids
      // stay 1, 2, 3… as in the SQLite store.
      if let earlier = try existing(benchmark.contentHash) { return earlier }
      let inserted = try connection.query(
        """
        INSERT INTO benchmark (content_hash, commit_sha, branch, time, machine, hostname, tool_version,
          settings, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (content_hash) DO NOTHING RETURNING id
        """,
        [
          benchmark.contentHash, benchmark.commit, benchmark.branch, benchmark.time, benchmark.machine,
          benchmark.hostname, benchmark.toolVersion, benchmark.settings, HistoryTime.now(),
        ])
      guard !inserted.rows.isEmpty else {
        // Another recorder committed the same results between the lookup and the insert.
        return try existing(benchmark.contentHash) ?? .alreadyRecorded(id: 0, commit: "")
      }
      let benchmarkID = inserted.integer(0, 0)
      for cell in benchmark.cells { try insert(cell, benchmarkID: benchmarkID) }
      return .added(id: benchmarkID)
    }
  }

  /// The benchmark recorded with `contentHash`, if any.
  private func existing(_ contentHash: String) throws(HistoryError) -> HistoryRecordOutcome? {
    let found = try connection.query(
      "SELECT id, commit_sha FROM benchmark WHERE content_hash = $1", [contentHash])
    guard let row = found.rows.first else { return nil }
    return .alreadyRecorded(id: found.integer(0, 0), commit: row[1] ?? "")
  }

  /// Inserts `cell` of benchmark `benchmarkID`, its runs and their finite phases.
  private func insert(_ cell: HistoryCell, benchmarkID: Int64) throws(HistoryError) {
    let cellID = try connection.query(
      """
      INSERT INTO cell (benchmark_id, condition, config, camera, runs, failed)
      VALUES ($1::bigint, $2, $3, $4, $5::integer, $6::integer) RETURNING id
      """,
      [String(benchmarkID), cell.condition, cell.config, cell.camera, String(cell.runs), String(cell.failed)]
    ).integer(0, 0)
    guard !cell.records.isEmpty else { return }
    let ids = try connection.query(
      "SELECT nextval('run_id_seq') FROM generate_series(1, $1::integer)", [String(cell.records.count)]
    ).rows.map { $0[0] }
    try connection.query(
      """
      INSERT INTO run (id, cell_id, run, ok, error, counts)
      SELECT u.id, $1::bigint, u.run, u.ok, u.error, u.counts
      FROM unnest($2::bigint[], $3::integer[], $4::integer[], $5::text[], $6::text[]) AS u(id, run, ok, error, counts)
      """,
      [
        String(cellID), PQArray.literal(ids), PQArray.literal(cell.records.map { String($0.run) }),
        PQArray.literal(cell.records.map { $0.ok ? "1" : "0" }), PQArray.literal(cell.records.map(\.error)),
        PQArray.literal(cell.records.map { SQLiteHistoryStore.countsJSON($0.counts) }),
      ])
    var runIDs: [String?] = []
    var names: [String?] = []
    var values: [String?] = []
    for (id, run) in zip(ids, cell.records) {
      for (name, ms) in run.phases.sorted(by: { $0.key < $1.key }) where ms.isFinite {
        runIDs.append(id)
        names.append(name)
        values.append(String(ms))
      }
    }
    guard !runIDs.isEmpty else { return }
    try connection.query(
      """
      INSERT INTO phase (run_id, phase, ms)
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::double precision[])
      """,
      [PQArray.literal(runIDs), PQArray.literal(names), PQArray.literal(values)])
  }
}

/// PostgreSQL's array literals, for passing a column of values as one text parameter.
enum PQArray {
  /// `{"a","b\"c",NULL}`: every element quoted, with `"` and `\` escaped by a backslash; nil is
  /// NULL. PostgreSQL casts it to the array type the statement names (`$1::bigint[]`).
  static func literal(_ elements: [String?]) -> String {
    var text = "{"
    for (i, element) in elements.enumerated() {
      if i > 0 { text += "," }
      guard let element else {
        text += "NULL"
        continue
      }
      text += "\""
      if element.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
        for character in element {
          if character == "\"" || character == "\\" { text += "\\" }
          text.append(character)
        }
      } else {
        text += element  // the common case (numbers, phase names): nothing to escape
      }
      text += "\""
    }
    return text + "}"
  }
}
