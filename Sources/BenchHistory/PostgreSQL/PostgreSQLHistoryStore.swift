import Foundation

/// The history on a PostgreSQL server (`--db postgresql://…`), through libpq loaded at run time:
/// one database a fleet of machines records into at once. The same tables as the SQLite store
/// (``SQLiteHistoryStore``) in PostgreSQL's types, the same `schema_version` table and versions;
/// every record is one transaction whose benchmark row is unique by content hash (`INSERT … ON
/// CONFLICT DO NOTHING`), so two machines recording the same results add it once and two
/// recording different results both land, whole. Migrations run under a transaction-scoped
/// advisory lock, so recorders starting together migrate once.
package final class PostgreSQLHistoryStore: HistoryStore {
  /// The connection.
  let connection: PQConnection
  /// The schema version after opening.
  package private(set) var schemaVersion = 0

  /// Connects to `url` and migrates its schema forward to `version` (default: the newest,
  /// `PostgreSQLHistoryStore.migrations.count`); read-only, nothing is created or migrated.
  /// - Throws: `HistoryError`: libpq is missing, the server refuses the connection, a read-only
  ///   open finds no history there (`cannotOpen`), or the schema is newer than this bench.
  package init(url: String, readOnly: Bool = false, migratingTo version: Int? = nil) throws(HistoryError) {
    connection = try PQConnection(url: url)
    // Quiet: CREATE TABLE IF NOT EXISTS's notices are not the user's business.
    try connection.execute("SET client_min_messages = warning")
    schemaVersion = try migrate(readOnly: readOnly, to: version ?? Self.migrations.count)
  }

  /// The schema's versions, as ``SQLiteHistoryStore/migrations`` in PostgreSQL's types: the
  /// statements that take a database from version i to i + 1 are `migrations[i]`. Append only.
  static let migrations: [[String]] = [
    [
      """
      CREATE TABLE benchmark (
        id BIGSERIAL PRIMARY KEY, content_hash TEXT NOT NULL UNIQUE, commit_sha TEXT NOT NULL,
        branch TEXT NOT NULL, time TEXT NOT NULL, machine TEXT NOT NULL, hostname TEXT NOT NULL,
        tool_version TEXT NOT NULL, settings TEXT NOT NULL, recorded_at TEXT NOT NULL)
      """,
      "CREATE INDEX benchmark_machine_time ON benchmark (machine, time)",
      """
      CREATE TABLE cell (
        id BIGSERIAL PRIMARY KEY, benchmark_id BIGINT NOT NULL REFERENCES benchmark (id),
        condition TEXT NOT NULL, config TEXT NOT NULL, camera TEXT NOT NULL, runs INTEGER NOT NULL,
        failed INTEGER NOT NULL, UNIQUE (benchmark_id, condition, config, camera))
      """,
      """
      CREATE TABLE run (
        id BIGSERIAL PRIMARY KEY, cell_id BIGINT NOT NULL REFERENCES cell (id), run INTEGER NOT NULL,
        ok INTEGER NOT NULL, error TEXT, counts TEXT NOT NULL)
      """,
      "CREATE INDEX run_cell ON run (cell_id)",
      """
      CREATE TABLE phase (
        run_id BIGINT NOT NULL REFERENCES run (id), phase TEXT NOT NULL, ms DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (run_id, phase))
      """,
    ],
    HistorySchema.version2,
  ]

  /// The advisory lock key migrations hold (`pg_advisory_xact_lock`): "FFhist" in ASCII.
  static let migrationLock: Int64 = 0x4646_6869_7374

  /// Brings the schema to `target`, in one transaction under the migration lock; returns the
  /// version. Read-only, says what is there.
  /// - Throws: `HistoryError`: `schemaTooNew` for a database from a newer bench, `cannotOpen`
  ///   when a read-only open finds no history.
  private func migrate(readOnly: Bool, to target: Int) throws(HistoryError) -> Int {
    if readOnly {
      let version = try currentVersion()
      guard version > 0 else {
        throw HistoryError(
          .cannotOpen,
          "no history in \(connection.name): record results into it with bench history record")
      }
      return try checked(version)
    }
    return try connection.transaction { () throws(HistoryError) -> Int in
      try connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [String(Self.migrationLock)])
      try connection.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)")
      var version = try checked(try currentVersion())
      while version < target {
        for sql in Self.migrations[version] { try connection.execute(sql) }
        version += 1
        try connection.query(
          "INSERT INTO schema_version (version, applied_at) VALUES ($1::integer, $2)",
          [String(version), HistoryTime.now()])
      }
      return version
    }
  }

  /// `version`, unless it is newer than this bench knows.
  private func checked(_ version: Int) throws(HistoryError) -> Int {
    let newest = Self.migrations.count
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
    let exists = try connection.query("SELECT to_regclass('schema_version') IS NOT NULL")
    guard exists.rows.first?.first == "t" else { return 0 }
    return Int(try connection.query("SELECT coalesce(max(version), 0) FROM schema_version").integer(0, 0))
  }
}
