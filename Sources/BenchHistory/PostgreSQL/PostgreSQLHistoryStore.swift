import Foundation

/// The history on a PostgreSQL server (`--db postgresql://…`), through libpq loaded at run time:
/// one database a fleet of machines records into at once. The same tables as the SQLite store
/// in PostgreSQL's types, the same `schema_version` table and versions; every record is one
/// transaction whose benchmark row is unique by content hash (`INSERT … ON CONFLICT DO
/// NOTHING`), so two machines recording the same results add it once and two recording
/// different results both land, whole. Migrations run under a transaction-scoped advisory lock,
/// so recorders starting together migrate once.
package typealias PostgreSQLHistoryStore = SQLHistoryStore<PQConnection>

extension SQLHistoryStore where Connection == PQConnection {
  /// Connects to `url` and migrates its schema forward to `version` (default: the newest);
  /// read-only, nothing is created or migrated.
  /// - Throws: `HistoryError`: libpq is missing, the server refuses the connection, a read-only
  ///   open finds no history there (`cannotOpen`), or the schema is newer than this bench.
  package convenience init(url: String, readOnly: Bool = false, migratingTo version: Int? = nil)
    throws(HistoryError)
  {
    try self.init(connection: try PQConnection(url: url), readOnly: readOnly, migratingTo: version)
  }
}
