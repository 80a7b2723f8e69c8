/// SQLite's SQL: numbered `?N` parameters (no casts: values carry their type), `INTEGER PRIMARY
/// KEY` ids (the row id), `WITHOUT ROWID` for the phase table, write-ahead logging and foreign
/// keys per connection, and a row a prepared statement (cheap in-process; the statement is
/// prepared once per transaction).
package struct SQLiteDialect: SQLDialect {
  /// SQLite's dialect.
  package init() {}

  /// `?N`.
  package func parameter(_ number: Int, _ type: SQLType) -> String { "?\(number)" }

  /// `INTEGER` (64-bit in SQLite), `REAL`, `TEXT`.
  package func typeName(_ type: SQLType) -> String {
    switch type {
    case .integer, .bigint: "INTEGER"
    case .double: "REAL"
    case .text: "TEXT"
    }
  }

  /// The row id: `INTEGER PRIMARY KEY`.
  package var idColumn: String { "INTEGER PRIMARY KEY" }

  /// ` WITHOUT ROWID`: stored by its key alone.
  package var keyedTableOptions: String { " WITHOUT ROWID" }

  /// Write-ahead logging (so `show` reads while a `record` writes) unless read-only; foreign keys on.
  package func sessionSetup(readOnly: Bool) -> [String] {
    (readOnly ? [] : ["PRAGMA journal_mode=WAL"]) + ["PRAGMA foreign_keys=ON"]
  }

  /// From `sqlite_master`.
  package var schemaVersionTableExists: String {
    "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
  }

  /// None: a transaction is `BEGIN IMMEDIATE`, which takes the write lock at once.
  package var migrationLock: (sql: String, values: [SQLValue])? { nil }

  /// The ids after the table's highest, which is what SQLite gives a row inserted without one;
  /// the write lock of the transaction keeps them.
  package func nextIDs(of table: String, count: Int) -> (sql: String, values: [SQLValue]) {
    (
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
      SELECT (SELECT coalesce(max(id), 0) FROM \(table)) + i FROM n
      """, [.integer(Int64(count))]
    )
  }

  /// One `INSERT … VALUES (?1, …)` a row (the connection keeps it prepared).
  package func insert(
    into table: String, columns: [(name: String, type: SQLType)], rows: [[SQLValue]]
  ) -> [(sql: String, values: [SQLValue])] {
    let sql =
      "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", "))) VALUES (\(parameters(columns.map(\.type))))"
    return rows.map { (sql, $0) }
  }
}
