import CSQLiteShims

/// libsqlite3, loaded with dlopen the first time a history database is opened (Debian package
/// `libsqlite3-0`), so that building and running bench needs no SQLite package.
package enum SQLiteLibrary {
  /// The library's file name, as the dynamic loader looks it up.
  package static let defaultPath = "libsqlite3.so.0"

  /// Loads `path` and resolves the functions the store calls. The corresponding C call is
  /// `dlopen(path, RTLD_NOW | RTLD_LOCAL)` then `dlsym` per function.
  /// - Throws: `HistoryError` (`libraryMissing`) with dlopen's text when it cannot be loaded.
  package static func load(path: String = defaultPath) throws(HistoryError) {
    try HistoryLibrary.load(path, for: "the history database", package: "libsqlite3-0") {
      path, message, size in
      CSQLiteShims_load(path, message, size)
    }
  }

  /// Whether the default library can be loaded on this machine (the history tests skip, saying
  /// so, where it cannot).
  package static var isAvailable: Bool { (try? load()) != nil }
}
