/// The history's schema, written once for every dialect: the statements that take a database
/// from version i to i + 1 are `migrations(dialect)[i]`. Append only: a released version's
/// statements never change (HistorySchemaTests keeps each dialect's text as it was released).
package enum HistorySchema {
  /// The newest version.
  package static let newest = 2

  /// The migrations in `dialect`'s words, version 1's first.
  package static func migrations(_ dialect: some SQLDialect) -> [[String]] {
    [version1(dialect), version2]
  }

  /// Version 1: benchmarks, their cells, the cells' runs and the runs' phases.
  static func version1(_ dialect: some SQLDialect) -> [String] {
    let id = dialect.idColumn
    let reference = dialect.typeName(.bigint)
    return [
      """
      CREATE TABLE benchmark (
        id \(id), content_hash TEXT NOT NULL UNIQUE, commit_sha TEXT NOT NULL,
        branch TEXT NOT NULL, time TEXT NOT NULL, machine TEXT NOT NULL, hostname TEXT NOT NULL,
        tool_version TEXT NOT NULL, settings TEXT NOT NULL, recorded_at TEXT NOT NULL)
      """,
      "CREATE INDEX benchmark_machine_time ON benchmark (machine, time)",
      """
      CREATE TABLE cell (
        id \(id), benchmark_id \(reference) NOT NULL REFERENCES benchmark (id),
        condition TEXT NOT NULL, config TEXT NOT NULL, camera TEXT NOT NULL, runs INTEGER NOT NULL,
        failed INTEGER NOT NULL, UNIQUE (benchmark_id, condition, config, camera))
      """,
      """
      CREATE TABLE run (
        id \(id), cell_id \(reference) NOT NULL REFERENCES cell (id), run INTEGER NOT NULL,
        ok INTEGER NOT NULL, error TEXT, counts TEXT NOT NULL)
      """,
      "CREATE INDEX run_cell ON run (cell_id)",
      """
      CREATE TABLE phase (
        run_id \(reference) NOT NULL REFERENCES run (id), phase TEXT NOT NULL, ms \(dialect.typeName(.double)) NOT NULL,
        PRIMARY KEY (run_id, phase))\(dialect.keyedTableOptions)
      """,
    ]
  }

  /// Version 2: an index on the benchmarks' commits, for looking benchmarks up by commit (what a
  /// bisection asks: "was this commit measured?"); it changes no table and no result.
  static let version2 = ["CREATE INDEX benchmark_commit ON benchmark (commit_sha)"]
}
