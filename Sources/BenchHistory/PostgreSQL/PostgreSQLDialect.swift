/// PostgreSQL's SQL: `$N::type` parameters (libpq sends every value as text, so each is cast to
/// its type), `BIGSERIAL` ids, a notice-free session, migrations under a transaction-scoped
/// advisory lock (so recorders starting together migrate once), run ids drawn from the
/// sequence, and many rows in one statement over arrays (`unnest`): a cell of thousands of
/// runs is a few round trips, not thousands.
package struct PostgreSQLDialect: SQLDialect {
  /// PostgreSQL's dialect.
  package init() {}

  /// The advisory lock key migrations hold (`pg_advisory_xact_lock`): "FFhist" in ASCII.
  static let migrationLockKey: Int64 = 0x4646_6869_7374

  /// `$N::type`.
  package func parameter(_ number: Int, _ type: SQLType) -> String { "$\(number)::\(castName(type))" }

  /// `INTEGER`, `BIGINT`, `DOUBLE PRECISION`, `TEXT`.
  package func typeName(_ type: SQLType) -> String {
    switch type {
    case .integer: "INTEGER"
    case .bigint: "BIGINT"
    case .double: "DOUBLE PRECISION"
    case .text: "TEXT"
    }
  }

  /// The type's name in a cast (`$1::bigint`).
  func castName(_ type: SQLType) -> String { typeName(type).lowercased() }

  /// `BIGSERIAL PRIMARY KEY` (its sequence is `TABLE_id_seq`).
  package var idColumn: String { "BIGSERIAL PRIMARY KEY" }

  /// Nothing.
  package var keyedTableOptions: String { "" }

  /// Quiet: `CREATE TABLE IF NOT EXISTS`'s notices are not the user's business.
  package func sessionSetup(readOnly: Bool) -> [String] { ["SET client_min_messages = warning"] }

  /// From `to_regclass`.
  package var schemaVersionTableExists: String {
    "SELECT (to_regclass('schema_version') IS NOT NULL)::integer"
  }

  /// `pg_advisory_xact_lock` on ``migrationLockKey``, released when the transaction ends.
  package var migrationLock: (sql: String, values: [SQLValue])? {
    ("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(Self.migrationLockKey)])
  }

  /// `nextval` of the table's id sequence, `count` times.
  package func nextIDs(of table: String, count: Int) -> (sql: String, values: [SQLValue]) {
    ("SELECT nextval('\(table)_id_seq') FROM generate_series(1, $1::integer)", [.integer(Int64(count))])
  }

  /// One `INSERT … SELECT * FROM unnest($1::type[], …)`, each column one array literal.
  package func insert(
    into table: String, columns: [(name: String, type: SQLType)], rows: [[SQLValue]]
  ) -> [(sql: String, values: [SQLValue])] {
    guard !rows.isEmpty else { return [] }
    let arrays = columns.enumerated().map { "$\($0.offset + 1)::\(castName($0.element.type))[]" }
    let sql =
      "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", "))) SELECT * FROM unnest(\(arrays.joined(separator: ", ")))"
    let values = columns.indices.map { column in SQLValue.text(PQArray.literal(rows.map { $0[column].text }))
    }
    return [(sql, values)]
  }
}
