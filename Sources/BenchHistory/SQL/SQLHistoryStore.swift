/// The history in an SQL database, written once for every back end: the same tables (in the
/// connection's dialect, ``HistorySchema``), a `schema_version` table with forward migrations,
/// and every record one transaction that adds a benchmark once by its content hash. The back
/// end is the connection (``SQLConnection``) and its dialect (``SQLDialect``): an SQLite file
/// (``SQLiteHistoryStore``) or a PostgreSQL server (``PostgreSQLHistoryStore``).
package final class SQLHistoryStore<Connection: SQLConnection>: HistoryStore {
  /// The connection.
  let connection: Connection
  /// The schema version after opening.
  package private(set) var schemaVersion = 0

  /// Sets `connection`'s session up and migrates its schema forward to `version` (default: the
  /// newest, ``HistorySchema/newest``); read-only, nothing is created or migrated.
  /// - Throws: `HistoryError`: a read-only open finds no history (`cannotOpen`), the schema is
  ///   newer than this bench (`schemaTooNew`), or a statement fails.
  package init(connection: Connection, readOnly: Bool = false, migratingTo version: Int? = nil)
    throws(HistoryError)
  {
    self.connection = connection
    for sql in connection.dialect.sessionSetup(readOnly: readOnly) { try connection.execute(sql) }
    schemaVersion = try migrate(readOnly: readOnly, to: version ?? HistorySchema.newest)
  }

  /// Brings the schema to `target` in one transaction (under the dialect's migration lock, the
  /// version read again inside it: another recorder may have migrated meanwhile); returns the
  /// version. Read-only, says what is there.
  /// - Throws: `HistoryError`: `schemaTooNew` for a database from a newer bench, `cannotOpen`
  ///   when a read-only open finds no history.
  private func migrate(readOnly: Bool, to target: Int) throws(HistoryError) -> Int {
    let found = try checked(try currentVersion())
    if readOnly {
      guard found > 0 else {
        throw HistoryError(
          .cannotOpen,
          "no history in \(connection.name): record results into it with bench history record")
      }
      return found
    }
    guard found < target else { return found }
    let dialect = connection.dialect
    return try connection.transaction { () throws(HistoryError) -> Int in
      if let lock = dialect.migrationLock { _ = try connection.select(lock.sql, lock.values).next() }
      try connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)")
      var version = try checked(try currentVersion())
      let migrations = HistorySchema.migrations(dialect)
      while version < target {
        for sql in migrations[version] { try connection.execute(sql) }
        version += 1
        try connection.run(
          "INSERT INTO schema_version (version, applied_at) VALUES (\(dialect.parameters([.integer, .text])))",
          [.integer(Int64(version)), .text(HistoryTime.now())])
      }
      return version
    }
  }

  /// `version`, unless it is newer than this bench knows.
  private func checked(_ version: Int) throws(HistoryError) -> Int {
    let newest = HistorySchema.newest
    guard version <= newest else {
      throw HistoryError(
        .schemaTooNew,
        "the history database \(connection.name) has schema version \(version); this bench knows up to \(newest): use a newer bench"
      )
    }
    return version
  }

  /// The highest version in `schema_version`; 0 where there is no such table.
  private func currentVersion() throws(HistoryError) -> Int {
    let exists = try connection.select(connection.dialect.schemaVersionTableExists, [])
    guard try exists.next(), exists.integer(0) > 0 else { return 0 }
    let version = try connection.select("SELECT coalesce(max(version), 0) FROM schema_version", [])
    return try version.next() ? Int(version.integer(0)) : 0
  }
}
