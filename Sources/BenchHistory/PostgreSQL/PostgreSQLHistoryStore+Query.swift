import HistoryAnalysis

extension PostgreSQLHistoryStore {
  /// The filters of `query` as an SQL condition over `benchmark b` and `cell c`, its parameters
  /// numbered from `$first`, with their values: the same filters as the SQLite store's.
  private static func filter(_ query: HistoryQuery, first: Int) -> (sql: String, values: [String?]) {
    var clauses: [String] = []
    var values: [String?] = []
    func next(_ value: String) -> String {
      values.append(value)
      return "$\(first + values.count - 1)::text"
    }
    if let machine = query.machine {
      // The whole fingerprint, its first characters, its first hex digits (as tables show it:
      // the `fnv1a64:` prefix left out), or the host name.
      let m = next(machine)
      clauses.append(
        "(b.machine = \(m) OR b.hostname = \(m) OR substr(b.machine, 1, length(\(m))) = \(m) OR substr(b.machine, 9, length(\(m))) = \(m))"
      )
    }
    if let since = query.since { clauses.append("b.time >= \(next(since))") }
    if let condition = query.condition { clauses.append("c.condition = \(next(condition))") }
    if let config = query.config { clauses.append("c.config = \(next(config))") }
    if let branch = query.branch {
      clauses.append("b.branch = \(next(branch))")
    } else {
      clauses.append("b.branch <> \(next(HistoryQuery.bisectBranch))")
    }
    return (clauses.joined(separator: " AND "), values)
  }

  /// The benchmarks `query` selects, oldest first, with the selected cells and phases: two
  /// queries (cells, then run phases), joined in memory by cell id, as the SQLite store does.
  /// - Throws: `HistoryError` when the server fails.
  package func benchmarks(_ query: HistoryQuery) throws(HistoryError) -> [HistoryBenchmark] {
    let (condition, values) = Self.filter(query, first: 1)
    let cells = try connection.query(
      """
      SELECT b.id, b.content_hash, b.commit_sha, b.branch, b.time, b.machine, b.hostname, b.tool_version,
        c.id, c.condition, c.config, c.camera, c.runs, c.failed
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id WHERE \(condition) ORDER BY b.time, b.id, c.id
      """, values)
    var benchmarks: [HistoryBenchmark] = []
    var cellPlace: [Int64: (benchmark: Int, cell: Int)] = [:]
    for (i, row) in cells.rows.enumerated() {
      let id = cells.integer(i, 0)
      if benchmarks.last?.id != id {
        var b = HistoryBenchmark(
          contentHash: row[1] ?? "", commit: row[2] ?? "", branch: row[3] ?? "", time: row[4] ?? "",
          machine: row[5] ?? "", hostname: row[6] ?? "", toolVersion: row[7] ?? "", settings: "", cells: [])
        b.id = id
        benchmarks.append(b)
      }
      let cell = HistoryCell(
        condition: row[9] ?? "", config: row[10] ?? "", camera: row[11] ?? "",
        runs: Int(cells.integer(i, 12)),
        failed: Int(cells.integer(i, 13)), records: [])
      cellPlace[cells.integer(i, 8)] = (benchmarks.count - 1, benchmarks[benchmarks.count - 1].cells.count)
      benchmarks[benchmarks.count - 1].cells.append(cell)
    }
    try loadRuns(into: &benchmarks, places: cellPlace, query: query)
    return benchmarks
  }

  /// Fills the runs of the cells at `places` (cell id → position), with the phase `query.phase`
  /// (or every phase) of each run; a run without that phase is still listed, with no phases.
  private func loadRuns(
    into benchmarks: inout [HistoryBenchmark], places: [Int64: (benchmark: Int, cell: Int)],
    query: HistoryQuery
  ) throws(HistoryError) {
    let phaseJoin = query.phase == nil ? "" : " AND p.phase = $1::text"
    let (condition, values) = Self.filter(query, first: query.phase == nil ? 1 : 2)
    let runs = try connection.query(
      """
      SELECT r.cell_id, r.id, r.run, r.ok, p.phase, p.ms
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id JOIN run r ON r.cell_id = c.id
        LEFT JOIN phase p ON p.run_id = r.id\(phaseJoin)
      WHERE \(condition) ORDER BY r.cell_id, r.id
      """, (query.phase.map { [$0] } ?? []) + values)
    var lastRun: Int64 = -1
    for (i, row) in runs.rows.enumerated() {
      guard let place = places[runs.integer(i, 0)] else { continue }
      let runID = runs.integer(i, 1)
      if runID != lastRun {
        benchmarks[place.benchmark].cells[place.cell].records.append(
          HistoryRun(run: Int(runs.integer(i, 2)), ok: runs.integer(i, 3) != 0, phases: [:]))
        lastRun = runID
      }
      if let name = row[4] {
        let last = benchmarks[place.benchmark].cells[place.cell].records.count - 1
        benchmarks[place.benchmark].cells[place.cell].records[last].phases[name] = runs.real(i, 5)
      }
    }
  }
}
