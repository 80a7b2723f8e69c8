import CSQLiteShims

extension SQLiteDatabase: SQLConnection {
  /// SQLite's SQL.
  package var dialect: SQLiteDialect { SQLiteDialect() }

  /// The file's path.
  package var name: String { path }

  /// Binds `values` and runs `sql` to its end; in a transaction the statement stays prepared
  /// for the next call with the same `sql` (a row of many).
  /// - Throws: `HistoryError` (`statementFailed`) with SQLite's reason.
  package func run(_ sql: String, _ values: [SQLValue]) throws(HistoryError) {
    if let statement = prepared?[sql] { return try statement.run(values) }
    let statement = try prepare(sql)
    prepared?[sql] = statement
    try statement.run(values)
  }

  /// Prepares `sql` and binds `values`; its rows are read with `next()`.
  /// - Throws: `HistoryError` (`statementFailed`) with SQLite's reason.
  package func select(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> SQLiteStatement {
    let statement = try prepare(sql)
    try statement.bind(values)
    return statement
  }

  /// Runs `sql` and returns the new row's id (`sqlite3_last_insert_rowid`), or nil when it
  /// changed no row (`sqlite3_changes`).
  /// - Throws: `HistoryError` (`statementFailed`) with SQLite's reason.
  package func insert(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> Int64? {
    try run(sql, values)
    return CSQLiteShims_changes(handle) > 0 ? lastInsertRowID : nil
  }
}
