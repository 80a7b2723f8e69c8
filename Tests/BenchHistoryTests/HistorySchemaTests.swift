import BenchHistory
import TestSupport
import Testing

/// The schema is written once over a dialect; what each dialect makes of it is the text each
/// store was released with, word for word (a released version's statements never change, and
/// SQLite keeps a table's statement in the file).
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct HistorySchemaTests {
  @Test("SQLite's migrations are the statements its store was released with")
  func sqlite() {
    #expect(HistorySchema.migrations(SQLiteDialect()) == [Self.sqliteVersion1, Self.version2])
  }

  @Test("PostgreSQL's migrations are the statements its store was released with")
  func postgresql() {
    #expect(HistorySchema.migrations(PostgreSQLDialect()) == [Self.postgresqlVersion1, Self.version2])
  }

  static let version2 = ["CREATE INDEX benchmark_commit ON benchmark (commit_sha)"]

  static let sqliteVersion1: [String] = [
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
  ]

  static let postgresqlVersion1: [String] = [
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
  ]
}
