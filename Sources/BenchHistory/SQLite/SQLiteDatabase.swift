import CSQLiteShims

/// One SQLite connection: the one place the store's SQL reaches SQLite (each call goes through
/// one method here, over `CSQLiteShims`); the history's ``SQLConnection`` for an SQLite file
/// (SQLiteDatabase+SQLConnection.swift). Used from one thread at a time; not `Sendable`.
package final class SQLiteDatabase {
  /// The connection handle (`sqlite3 *`).
  let handle: OpaquePointer
  /// The file it was opened on, for messages.
  package let path: String
  /// In a transaction, the statements `run(_:_:)` prepared, by their SQL, for the next row;
  /// nil outside one (a statement holds its database, so they go when the transaction ends).
  var prepared: [String: SQLiteStatement]?

  /// Loads libsqlite3 if needed and opens (or creates) the database at `path`, with a 10 s busy
  /// timeout so that concurrent writers wait for each other instead of failing. The
  /// corresponding C call is `sqlite3_open_v2`.
  /// - Throws: `HistoryError`: `libraryMissing`, or `cannotOpen` with SQLite's reason.
  package init(path: String, readOnly: Bool = false, library: String = SQLiteLibrary.defaultPath)
    throws(HistoryError)
  {
    try SQLiteLibrary.load(path: library)
    var db: OpaquePointer?
    let status = CSQLiteShims_open(path, readOnly ? 1 : 0, &db)
    guard status == Int32(CSQLiteShims_OK), let db else {
      let reason = db.map { String(cString: CSQLiteShims_errorMessage($0)) } ?? "out of memory"
      if let db { _ = CSQLiteShims_close(db) }
      throw HistoryError(.cannotOpen, "cannot open the history database \(path)", cause: reason)
    }
    self.handle = db
    self.path = path
    _ = CSQLiteShims_busyTimeout(db, 10_000)
  }

  deinit { _ = CSQLiteShims_close(handle) }

  /// The connection's last error text (`sqlite3_errmsg`).
  package var lastError: String { String(cString: CSQLiteShims_errorMessage(handle)) }

  /// Runs statements that return no rows the caller reads (`sqlite3_exec`).
  /// - Throws: `HistoryError` (`statementFailed`) with SQLite's reason.
  package func execute(_ sql: String) throws(HistoryError) {
    let status = CSQLiteShims_exec(handle, sql)
    guard status == Int32(CSQLiteShims_OK) else { throw failure(status, "running \(sql.prefix(60))") }
  }

  /// Prepares one statement (`sqlite3_prepare_v2`).
  /// - Throws: `HistoryError` (`statementFailed`) with SQLite's reason.
  package func prepare(_ sql: String) throws(HistoryError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = CSQLiteShims_prepare(handle, sql, &statement)
    guard status == Int32(CSQLiteShims_OK), let statement else {
      throw failure(status, "preparing \(sql.prefix(60))")
    }
    return SQLiteStatement(statement, database: self)
  }

  /// The row id of the last insert (`sqlite3_last_insert_rowid`).
  package var lastInsertRowID: Int64 { CSQLiteShims_lastInsertRowID(handle) }

  /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so a writer takes the write lock at once
  /// and waits for the busy timeout rather than failing half-way), committing when it returns
  /// and rolling back when it throws.
  /// - Throws: `HistoryError` from `body`, or when the transaction cannot begin or commit.
  package func transaction<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
    try execute("BEGIN IMMEDIATE")
    prepared = [:]
    defer { prepared = nil }
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// The error for result code `status` while doing `what`.
  func failure(_ status: Int32, _ what: String) -> HistoryError {
    HistoryError(
      .statementFailed, "the history database \(path) failed \(what) (SQLite code \(status))",
      cause: lastError)
  }
}
