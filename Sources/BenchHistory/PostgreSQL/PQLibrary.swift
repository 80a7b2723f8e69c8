import CPQShims

/// libpq, loaded with dlopen the first time a `postgresql://` history database is opened (Debian
/// package `libpq5`), so that building and running bench needs no PostgreSQL package.
package enum PQLibrary {
  /// The library's file name, as the dynamic loader looks it up.
  package static let defaultPath = "libpq.so.5"

  /// Loads `path` and resolves the functions the store calls. The corresponding C call is
  /// `dlopen(path, RTLD_NOW | RTLD_LOCAL)` then `dlsym` per function (CLibraryLoader).
  /// - Throws: `HistoryError` (`libraryMissing`) with dlopen's text when it cannot be loaded.
  package static func load(path: String = defaultPath) throws(HistoryError) {
    try HistoryLibrary.load(path, for: "the PostgreSQL history database", package: "libpq5") {
      path, message, size in
      CPQShims_load(path, message, size)
    }
  }

  /// Whether the default library can be loaded on this machine (the PostgreSQL history tests
  /// skip, saying so, where it cannot).
  package static var isAvailable: Bool { (try? load()) != nil }
}
