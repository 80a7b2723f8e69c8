import HistoryAnalysis

extension SQLHistoryStore {
  /// The filters of `query` as an SQL condition over `benchmark b` and `cell c`, its values added
  /// to `parameters`.
  static func filter(_ query: HistoryQuery, _ parameters: inout SQLParameters<Connection.Dialect>) -> String {
    var clauses: [String] = []
    if let machine = query.machine {
      // The whole fingerprint, its first characters, its first hex digits (as tables show it:
      // the `fnv1a64:` prefix left out), or the host name.
      let m = parameters.add(machine)
      clauses.append(
        "(b.machine = \(m) OR b.hostname = \(m) OR substr(b.machine, 1, length(\(m))) = \(m) OR substr(b.machine, 9, length(\(m))) = \(m))"
      )
    }
    if let since = query.since { clauses.append("b.time >= \(parameters.add(since))") }
    if let condition = query.condition { clauses.append("c.condition = \(parameters.add(condition))") }
    if let config = query.config { clauses.append("c.config = \(parameters.add(config))") }
    if let branch = query.branch {
      clauses.append("b.branch = \(parameters.add(branch))")
    } else {
      clauses.append("b.branch <> \(parameters.add(HistoryQuery.bisectBranch))")
    }
    return clauses.joined(separator: " AND ")
  }

  /// The benchmarks `query` selects, oldest first, with the selected cells and phases: two
  /// queries (cells, then run phases), joined in memory by cell id.
  /// - Throws: `HistoryError` when the database fails.
  package func benchmarks(_ query: HistoryQuery) throws(HistoryError) -> [HistoryBenchmark] {
    var parameters = SQLParameters(connection.dialect)
    let condition = Self.filter(query, &parameters)
    let cells = try connection.select(
      """
      SELECT b.id, b.content_hash, b.commit_sha, b.branch, b.time, b.machine, b.hostname, b.tool_version,
        c.id, c.condition, c.config, c.camera, c.runs, c.failed, b.settings
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id WHERE \(condition) ORDER BY b.time, b.id, c.id
      """, parameters.values)
    var benchmarks: [HistoryBenchmark] = []
    var cellPlace: [Int64: (benchmark: Int, cell: Int)] = [:]
    while try cells.next() {
      let id = cells.integer(0)
      if benchmarks.last?.id != id {
        var benchmark = HistoryBenchmark(
          contentHash: cells.text(1) ?? "", commit: cells.text(2) ?? "", branch: cells.text(3) ?? "",
          time: cells.text(4) ?? "", machine: cells.text(5) ?? "", hostname: cells.text(6) ?? "",
          toolVersion: cells.text(7) ?? "", settings: cells.text(14) ?? "", cells: [])
        benchmark.id = id
        benchmarks.append(benchmark)
      }
      let cell = HistoryCell(
        condition: cells.text(9) ?? "", config: cells.text(10) ?? "", camera: cells.text(11) ?? "",
        runs: Int(cells.integer(12)), failed: Int(cells.integer(13)), records: [])
      cellPlace[cells.integer(8)] = (benchmarks.count - 1, benchmarks[benchmarks.count - 1].cells.count)
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
    var parameters = SQLParameters(connection.dialect)
    let phaseJoin = query.phase.map { " AND p.phase = \(parameters.add($0))" } ?? ""
    let condition = Self.filter(query, &parameters)
    let runs = try connection.select(
      """
      SELECT r.cell_id, r.id, r.run, r.ok, p.phase, p.ms
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id JOIN run r ON r.cell_id = c.id
        LEFT JOIN phase p ON p.run_id = r.id\(phaseJoin)
      WHERE \(condition) ORDER BY r.cell_id, r.id
      """, parameters.values)
    var lastRun: Int64 = -1
    while try runs.next() {
      guard let place = places[runs.integer(0)] else { continue }
      let runID = runs.integer(1)
      if runID != lastRun {
        benchmarks[place.benchmark].cells[place.cell].records.append(
          HistoryRun(run: Int(runs.integer(2)), ok: runs.integer(3) != 0, phases: [:]))
        lastRun = runID
      }
      if let name = runs.text(4) {
        let last = benchmarks[place.benchmark].cells[place.cell].records.count - 1
        benchmarks[place.benchmark].cells[place.cell].records[last].phases[name] = runs.real(5)
      }
    }
  }
}
