import HistoryAnalysis

/// A history database: where `bench history record` puts benchmarks and `show` and `detect`
/// read them. One implementation for every SQL back end, `SQLHistoryStore` over a connection and
/// its dialect (an SQLite file, `SQLiteHistoryStore`; a PostgreSQL server through libpq,
/// `PostgreSQLHistoryStore`, for a fleet recording into one server): the same tables, a
/// `schema_version` table, forward migrations, records idempotent by content hash, and the same
/// answers for the same records.
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
