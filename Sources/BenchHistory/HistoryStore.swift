import HistoryAnalysis

/// A history database: where `bench history record` puts benchmarks and `show` and `detect`
/// read them. One implementation per back end (an SQLite file, `SQLiteHistoryStore`; a
/// PostgreSQL server through libpq, `PostgreSQLHistoryStore`, for a fleet recording into one
/// server): each keeps the same tables, a `schema_version` table, forward migrations, and
/// records idempotently by content hash; both give the same answers for the same records.
package protocol HistoryStore: AnyObject {
  /// The schema version the database is at after opening (migrations applied).
  var schemaVersion: Int { get }

  /// Records `benchmark` in one transaction, unless a benchmark with its content hash is
  /// already there (then nothing is added and the earlier one is named).
  /// - Throws: `HistoryError` when the database fails; nothing is half-recorded.
  func record(_ benchmark: HistoryBenchmark) throws(HistoryError) -> HistoryRecordOutcome

  /// The benchmarks `query` selects, oldest first (by time, then by record order), each with the
  /// cells it selects and, in their runs, only the phases it selects (counts and errors are not
  /// loaded).
  /// - Throws: `HistoryError` when the database fails.
  func benchmarks(_ query: HistoryQuery) throws(HistoryError) -> [HistoryBenchmark]

  /// The series `query` selects (`HistorySeries.build` of its benchmarks), for `show` and
  /// `detect`. A store may make them as it reads, without keeping every run (the default builds
  /// them from `benchmarks(_:)`).
  /// - Throws: `HistoryError` when the database fails.
  func series(_ query: HistoryQuery) throws(HistoryError) -> [HistorySeries]
}

extension HistoryStore {
  /// The series of `benchmarks(query)`.
  /// - Throws: `HistoryError` when the database fails.
  package func series(_ query: HistoryQuery) throws(HistoryError) -> [HistorySeries] {
    HistorySeries.build(try benchmarks(query))
  }
}

/// What recording one benchmark did.
package enum HistoryRecordOutcome: Sendable, Hashable {
  /// It was added, with this id.
  case added(id: Int64)
  /// The same results were recorded before (same content hash), as this id and commit.
  case alreadyRecorded(id: Int64, commit: String)
}

/// Where the history lives (`--db`): a plain path or `sqlite:PATH` is an SQLite file;
/// `postgresql://…` or `postgres://…` is a PostgreSQL server (libpq's URI, docs/history.md).
package enum HistoryDatabaseURL: Sendable, Hashable {
  /// An SQLite file at this path.
  case sqlite(path: String)
  /// A PostgreSQL connection URL.
  case postgresql(url: String)

  /// The default: `Results/history.sqlite`, relative to the working directory.
  package static let defaultPath = "Results/history.sqlite"

  /// Parses `--db`'s value.
  /// - Throws: `HistoryError` (`badDatabaseURL`) for an empty value or an unknown scheme.
  package init(parsing text: String) throws(HistoryError) {
    if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
      self = .postgresql(url: text)
    } else if text.hasPrefix("sqlite:") {
      let path = String(text.dropFirst("sqlite:".count))
      guard !path.isEmpty else {
        throw HistoryError(.badDatabaseURL, "--db sqlite: wants a path after the colon")
      }
      self = .sqlite(path: path)
    } else if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
      throw HistoryError(
        .badDatabaseURL,
        "--db \(text): unknown scheme \(text[..<colon]) (sqlite:PATH, a path, or postgresql://…)")
    } else {
      guard !text.isEmpty else { throw HistoryError(.badDatabaseURL, "--db wants a path, not an empty one") }
      self = .sqlite(path: text)
    }
  }

  /// Opens the store (creating an SQLite file and its folder when missing, or the tables on a
  /// PostgreSQL server, unless `readOnly`).
  /// - Throws: `HistoryError`: the library is missing, the database cannot be opened (or, read
  ///   only, holds no history), or the schema is newer than this bench.
  package func open(readOnly: Bool = false) throws(HistoryError) -> any HistoryStore {
    switch self {
    case .sqlite(let path): return try SQLiteHistoryStore(path: path, readOnly: readOnly)
    case .postgresql(let url): return try PostgreSQLHistoryStore(url: url, readOnly: readOnly)
    }
  }
}
