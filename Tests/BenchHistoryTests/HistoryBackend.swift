import BenchHistory
import Foundation
import TestSupport
import Testing

/// The history's two back ends, for tests that run against each: an SQLite file in a temporary
/// folder, and a new database on the private PostgreSQL server this test process shares
/// (``PostgreSQLServer/shared()``). Nothing is mocked: both are the real thing.
enum HistoryBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgresql

  var testDescription: String { rawValue }

  /// A new, empty database of this back end. A PostgreSQL case is cancelled (shown as skipped,
  /// with the reason) where libpq or the server binaries are missing; an SQLite one where
  /// libsqlite3 is.
  func makeDatabase() throws -> HistoryDatabaseURL {
    switch self {
    case .sqlite:
      guard SQLiteLibrary.isAvailable else { try Test.cancel(HistoryFixtures.skipReason) }
      return .sqlite(path: HistoryFixtures.databasePath())
    case .postgresql:
      guard PostgreSQLServer.available else { try Test.cancel(PostgreSQLServer.skipReason) }
      guard PQLibrary.isAvailable else {
        try Test.cancel("libpq.so.5 is missing (Debian package libpq5): PostgreSQL history tests skipped")
      }
      return .postgresql(url: try PostgreSQLServer.shared().makeDatabase())
    }
  }

  /// The store at `url`, migrated to `version` (the newest when nil).
  static func open(_ url: HistoryDatabaseURL, migratingTo version: Int? = nil) throws -> any HistoryStore {
    switch url {
    case .sqlite(let path): return try SQLiteHistoryStore(path: path, migratingTo: version)
    case .postgresql(let url): return try PostgreSQLHistoryStore(url: url, migratingTo: version)
    }
  }

  /// The rows of `sql` (its first `columns` columns) run directly on the database at `url`, not
  /// through the store, as text.
  static func rows(_ sql: String, columns: Int, in url: HistoryDatabaseURL) throws -> [[String?]] {
    switch url {
    case .sqlite(let path):
      let statement = try SQLiteDatabase(path: path).prepare(sql)
      var rows: [[String?]] = []
      while try statement.step() {
        rows.append((0..<columns).map { statement.text(Int32($0)) })
      }
      return rows
    case .postgresql(let url):
      return try PQConnection(url: url).query(sql).rows.map { Array($0.prefix(columns)) }
    }
  }
}
