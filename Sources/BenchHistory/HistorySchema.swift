/// The schema versions both back ends share word for word (the first version's tables differ in
/// their types: ``SQLiteHistoryStore/migrations``, ``PostgreSQLHistoryStore/migrations``).
enum HistorySchema {
  /// Version 2: an index on the benchmarks' commits, for looking benchmarks up by commit (what a
  /// bisection asks: "was this commit measured?"); it changes no table and no result.
  static let version2 = ["CREATE INDEX benchmark_commit ON benchmark (commit_sha)"]
}
