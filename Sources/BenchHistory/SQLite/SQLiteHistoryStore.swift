import SystemCalls

/// The history in one SQLite file (`Results/history.sqlite` by default), through libsqlite3
/// loaded at run time. Write-ahead logging, so `show` reads while a `record` writes; every record
/// is one `BEGIN IMMEDIATE` transaction, so concurrent recorders on one machine wait for each
/// other (10 s busy timeout) and never leave half a benchmark.
package typealias SQLiteHistoryStore = SQLHistoryStore<SQLiteDatabase>

extension SQLHistoryStore where Connection == SQLiteDatabase {
  /// Opens (or creates, with its folder) the database at `path` and migrates it forward to
  /// `version` (default: the newest); read-only, nothing is created or migrated.
  /// - Throws: `HistoryError`: the folder cannot be made or the file opened (`cannotOpen`), the
  ///   library is missing, read-only there is no history, or its schema is newer than this bench.
  package convenience init(path: String, readOnly: Bool = false, migratingTo version: Int? = nil)
    throws(HistoryError)
  {
    if !readOnly, let slash = path.lastIndex(of: "/"), slash != path.startIndex {
      let folder = String(path[..<slash])
      do throws(Errno) {
        try FileSystem.createDirectory(atPath: folder)
      } catch {
        throw HistoryError(
          .cannotOpen, "cannot make the folder of the history database \(path)", cause: "\(error)")
      }
    }
    try self.init(
      connection: try SQLiteDatabase(path: path, readOnly: readOnly), readOnly: readOnly, migratingTo: version
    )
  }
}
