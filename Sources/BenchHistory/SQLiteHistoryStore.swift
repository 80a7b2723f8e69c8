import Foundation

/// The history in one SQLite file (`Results/history.sqlite` by default), through libsqlite3
/// loaded at run time. Write-ahead logging, so `show` reads while a `record` writes; every record
/// is one `BEGIN IMMEDIATE` transaction, so concurrent recorders on one machine wait for each
/// other (10 s busy timeout) and never leave half a benchmark.
package final class SQLiteHistoryStore: HistoryStore {
  /// The connection.
  let database: SQLiteDatabase
  /// The schema version after opening.
  package private(set) var schemaVersion = 0

  /// Opens (or creates, with its folder) the database at `path` and migrates it forward to
  /// `version` (default: the newest, `SQLiteHistoryStore.migrations.count`); read-only, nothing
  /// is created or migrated.
  /// - Throws: `HistoryError`: the library is missing, the file cannot be opened or migrated, or
  ///   its schema is newer than this bench.
  package init(path: String, readOnly: Bool = false, migratingTo version: Int? = nil) throws(HistoryError) {
    if !readOnly {
      let folder = (path as NSString).deletingLastPathComponent
      if !folder.isEmpty {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
    }
    database = try SQLiteDatabase(path: path, readOnly: readOnly)
    if !readOnly { try database.execute("PRAGMA journal_mode=WAL") }
    try database.execute("PRAGMA foreign_keys=ON")
    schemaVersion = try migrate(readOnly: readOnly, to: version ?? Self.migrations.count)
  }

  /// The schema's versions: the statements that take a database from version i to i + 1 are
  /// `migrations[i]`. Append only: a released version's statements never change.
  static let migrations: [[String]] = [
    [
      """
      CREATE TABLE benchmark (
        id INTEGER PRIMARY KEY, content_hash TEXT NOT NULL UNIQUE, commit_sha TEXT NOT NULL,
        branch TEXT NOT NULL, time TEXT NOT NULL, machine TEXT NOT NULL, hostname TEXT NOT NULL,
        tool_version TEXT NOT NULL, settings TEXT NOT NULL, recorded_at TEXT NOT NULL)
      """,
      "CREATE INDEX benchmark_machine_time ON benchmark (machine, time)",
      """
      CREATE TABLE cell (
        id INTEGER PRIMARY KEY, benchmark_id INTEGER NOT NULL REFERENCES benchmark (id),
        condition TEXT NOT NULL, config TEXT NOT NULL, camera TEXT NOT NULL, runs INTEGER NOT NULL,
        failed INTEGER NOT NULL, UNIQUE (benchmark_id, condition, config, camera))
      """,
      """
      CREATE TABLE run (
        id INTEGER PRIMARY KEY, cell_id INTEGER NOT NULL REFERENCES cell (id), run INTEGER NOT NULL,
        ok INTEGER NOT NULL, error TEXT, counts TEXT NOT NULL)
      """,
      "CREATE INDEX run_cell ON run (cell_id)",
      """
      CREATE TABLE phase (
        run_id INTEGER NOT NULL REFERENCES run (id), phase TEXT NOT NULL, ms REAL NOT NULL,
        PRIMARY KEY (run_id, phase)) WITHOUT ROWID
      """,
    ],
    HistorySchema.version2,
  ]

  /// Brings the schema to `target`, one transaction per version; returns the version.
  /// - Throws: `HistoryError` (`schemaTooNew`) for a database from a newer bench.
  private func migrate(readOnly: Bool, to target: Int) throws(HistoryError) -> Int {
    if !readOnly {
      try database.execute(
        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, applied_at TEXT NOT NULL)")
    }
    var version = try currentVersion()
    let newest = Self.migrations.count
    guard version <= newest else {
      throw HistoryError(
        .schemaTooNew,
        "the history database \(database.path) has schema version \(version); this bench knows up to \(newest): use a newer bench"
      )
    }
    guard !readOnly else { return version }
    while version < target {
      let next = version + 1
      try database.transaction { () throws(HistoryError) in
        // Read again under the write lock: another recorder may have migrated meanwhile.
        guard try currentVersion() == version else { return }
        for sql in Self.migrations[version] { try database.execute(sql) }
        try database.prepare("INSERT INTO schema_version (version, applied_at) VALUES (?, ?)")
          .run([.integer(Int64(next)), .text(HistoryTime.now())])
      }
      version = try currentVersion()
    }
    return version
  }

  /// The highest version in `schema_version`; 0 for a new database.
  private func currentVersion() throws(HistoryError) -> Int {
    let exists = try database.prepare(
      "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")
    guard try exists.step(), exists.integer(0) > 0 else { return 0 }
    let statement = try database.prepare("SELECT coalesce(max(version), 0) FROM schema_version")
    return try statement.step() ? Int(statement.integer(0)) : 0
  }
}
