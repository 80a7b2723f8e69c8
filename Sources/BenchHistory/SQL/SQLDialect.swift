/// What differs between the SQL of two databases, as far as the history needs: how a parameter
/// is written, the names of the column types, an id that numbers itself, the statements a new
/// connection runs, how migrations lock each other out, and how many rows go in at once. The
/// schema, the filters and the queries (``HistorySchema``, ``SQLHistoryStore``) are written once
/// over it.
package protocol SQLDialect: Sendable {
  /// Parameter `number` (from 1) holding a value of `type`, as a statement spells it (a number
  /// may appear more than once in a statement).
  func parameter(_ number: Int, _ type: SQLType) -> String

  /// The name of column type `type` in a `CREATE TABLE`.
  func typeName(_ type: SQLType) -> String

  /// The declaration of a table's `id` column: a 64-bit primary key the database numbers 1, 2, 3…
  var idColumn: String { get }

  /// What ends the `CREATE TABLE` of a table keyed by its columns alone (no id): "" or an option
  /// that stores it by that key.
  var keyedTableOptions: String { get }

  /// The statements a new connection runs before the store's first (settings of the session).
  func sessionSetup(readOnly: Bool) -> [String]

  /// A query whose one row and column is 1 when the `schema_version` table exists, else 0.
  var schemaVersionTableExists: String { get }

  /// A statement run first in the migration transaction that makes other recorders' migrations
  /// wait for this one, with its parameters; nil where the transaction alone does it.
  var migrationLock: (sql: String, values: [SQLValue])? { get }

  /// A query returning `count` rows, each an id that `table`'s next inserts may use, in order:
  /// taken so that no other writer takes them.
  func nextIDs(of table: String, count: Int) -> (sql: String, values: [SQLValue])

  /// The statements that insert `rows` (each a value per column of `columns`) into `table`, with
  /// their parameters, to be run in order: one a row, or a few for them all.
  func insert(
    into table: String, columns: [(name: String, type: SQLType)], rows: [[SQLValue]]
  ) -> [(sql: String, values: [SQLValue])]
}

extension SQLDialect {
  /// Parameters 1… of `types`, separated by commas: `VALUES (…)`'s inside.
  package func parameters(_ types: [SQLType]) -> String {
    types.enumerated().map { parameter($0.offset + 1, $0.element) }.joined(separator: ", ")
  }
}
