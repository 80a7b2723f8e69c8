extension PQConnection: SQLConnection {
  /// PostgreSQL's SQL.
  package var dialect: PostgreSQLDialect { PostgreSQLDialect() }

  /// Runs `sql` with `values` as text parameters (`PQexecParams`), its rows left unread.
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  package func run(_ sql: String, _ values: [SQLValue]) throws(HistoryError) {
    _ = try select(sql, values)
  }

  /// Runs `sql` with `values` as text parameters and returns its rows, read in place.
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  package func select(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> PQCursor {
    PQCursor(try result(sql, values.map(\.text)))
  }

  /// Runs `sql` with ` RETURNING id` and returns that id, or nil when it inserted no row.
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  package func insert(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> Int64? {
    let rows = try select(sql + " RETURNING id", values)
    return try rows.next() ? rows.integer(0) : nil
  }
}
