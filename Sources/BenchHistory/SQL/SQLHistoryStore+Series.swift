import HistoryAnalysis

extension SQLHistoryStore {
  /// The series `query` selects, made as the rows come: two queries (cells; then the ok runs'
  /// phases, by cell), each cell's phases reduced to their medians as soon as its rows are read,
  /// phase names compared as bytes and kept once. No run is kept: 4 million phase rows (1000
  /// benchmarks × 40 cells × 10 runs × 10 phases) take tens of MB, not the GB of `benchmarks(_:)`.
  /// - Throws: `HistoryError` when the database fails.
  package func series(_ query: HistoryQuery) throws(HistoryError) -> [HistorySeries] {
    var parameters = SQLParameters(connection.dialect)
    let condition = Self.filter(query, &parameters)
    var summaries = try cellSummaries(condition: condition, values: parameters.values)
    let phaseFilter = query.phase.map { " AND p.phase = \(parameters.add($0))" } ?? ""
    let rows = try connection.select(
      """
      SELECT r.cell_id, p.phase, p.ms
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id JOIN run r ON r.cell_id = c.id
        JOIN phase p ON p.run_id = r.id
      WHERE \(condition) AND r.ok = 1\(phaseFilter) ORDER BY r.cell_id
      """, parameters.values)
    var names = PhaseNames()
    var samples: [[Double]] = []  // by phase number, the current cell's
    var current: Int?  // the current cell's place in `summaries`
    func flush() {
      guard let place = current else { return }
      for (number, values) in samples.enumerated() where !values.isEmpty {
        summaries.list[place].phases[names.names[number]] = HistorySeries.PhaseValue(values)
        samples[number].removeAll(keepingCapacity: true)
      }
    }
    var lastCell: Int64 = -1
    while try rows.next() {
      let cellID = rows.integer(0)
      if cellID != lastCell {
        flush()
        current = summaries.places[cellID]
        lastCell = cellID
      }
      let number = rows.withBytes(1) { names.number(of: $0) }
      while samples.count <= number { samples.append([]) }
      samples[number].append(rows.real(2))
    }
    flush()
    return HistorySeries.build(summaries: summaries.list)
  }

  /// The cells `condition` selects, oldest benchmark first, without phases (each with its
  /// setup, from its benchmark's settings), and each cell id's place in the list.
  private func cellSummaries(condition: String, values: [SQLValue]) throws(HistoryError) -> (
    list: [HistorySeries.CellSummary], places: [Int64: Int]
  ) {
    let cells = try connection.select(
      """
      SELECT b.id, b.commit_sha, b.branch, b.time, b.machine, b.hostname,
        c.id, c.condition, c.config, c.camera, c.runs, c.failed
      FROM benchmark b JOIN cell c ON c.benchmark_id = b.id WHERE \(condition) ORDER BY b.time, b.id, c.id
      """, values)
    var list: [HistorySeries.CellSummary] = []
    let settings = try benchmarkSettings(condition: condition, values: values)
    var setups: [String: HistorySetup] = [:]  // the current benchmark's, by cell
    var parsed = HistorySetup.Settings(json: "")  // the current benchmark's
    var places: [Int64: Int] = [:]
    var texts = TextCache()
    while try cells.next() {
      let id = cells.integer(0)
      var summary: HistorySeries.CellSummary
      if let last = list.last, last.benchmark == id {
        summary = last  // the benchmark's strings are shared, not read again
      } else {
        setups = [:]
        parsed = HistorySetup.Settings(json: settings[id] ?? "")
        summary = HistorySeries.CellSummary(
          benchmark: id, commit: cells.text(1) ?? "", branch: texts.text(cells, 2), time: cells.text(3) ?? "",
          machine: texts.text(cells, 4), hostname: texts.text(cells, 5), camera: "", condition: "",
          config: "",
          runs: 0, failed: 0)
      }
      summary.condition = texts.text(cells, 7)
      summary.config = texts.text(cells, 8)
      if let known = setups[summary.condition + "/" + summary.config] {
        summary.setup = known
      } else {
        summary.setup = HistorySetup(parsed, condition: summary.condition, config: summary.config)
        setups[summary.condition + "/" + summary.config] = summary.setup
      }
      summary.camera = texts.text(cells, 9)
      summary.runs = Int(cells.integer(10))
      summary.failed = Int(cells.integer(11))
      summary.phases = [:]
      places[cells.integer(6)] = list.count
      list.append(summary)
    }
    return (list, places)
  }
}

extension SQLHistoryStore {
  /// The settings (JSON) of each benchmark `condition` selects, by id: read once a benchmark, not
  /// once a cell.
  private func benchmarkSettings(condition: String, values: [SQLValue]) throws(HistoryError) -> [Int64:
    String]
  {
    let rows = try connection.select(
      """
      SELECT DISTINCT b.id, b.settings FROM benchmark b JOIN cell c ON c.benchmark_id = b.id
      WHERE \(condition)
      """, values)
    var settings: [Int64: String] = [:]
    while try rows.next() { settings[rows.integer(0)] = rows.text(1) ?? "" }
    return settings
  }
}

/// Phase names met while reading, each kept once and numbered in the order met.
private struct PhaseNames {
  /// The names, by number.
  var names: [String] = []
  /// Their bytes, by number.
  var bytes: [[UInt8]] = []
  /// The number last returned (rows of a run come in phase order, so the next is often next).
  var last = 0

  /// The number of the name whose UTF-8 bytes are `text`, adding it when new.
  mutating func number(of text: UnsafeBufferPointer<UInt8>) -> Int {
    for step in 0..<bytes.count {
      let k = (last + 1 + step) % bytes.count
      if bytes[k].elementsEqual(text) {
        last = k
        return k
      }
    }
    bytes.append(Array(text))
    names.append(String(decoding: text, as: UTF8.self))
    last = names.count - 1
    return last
  }
}

/// Short texts that repeat across rows (conditions, configurations, cameras, machines), each
/// kept as one `String`.
private struct TextCache {
  var known: [[UInt8]: String] = [:]

  /// Column `column` of `rows`' current row as text ("" for NULL), shared with earlier rows.
  mutating func text(_ rows: some SQLRows, _ column: Int32) -> String {
    rows.withBytes(column) { bytes in
      if let hit = known[Array(bytes)] { return hit }
      let text = String(decoding: bytes, as: UTF8.self)
      known[Array(bytes)] = text
      return text
    }
  }
}
