/// Where the history lives (`--db`): a plain path or `sqlite:PATH` is an SQLite file;
/// `postgresql://…` or `postgres://…` is a PostgreSQL server (libpq's URI, docs/history.md).
package enum HistoryDatabaseURL: Sendable, Hashable, CustomStringConvertible {
  /// An SQLite file at this path.
  case sqlite(path: String)
  /// A PostgreSQL connection URL.
  case postgresql(url: String)

  /// The default: `Results/history.sqlite`, relative to the working directory.
  package static let defaultPath = "Results/history.sqlite"

  /// The default database: the SQLite file at ``defaultPath``.
  package static let `default` = HistoryDatabaseURL.sqlite(path: defaultPath)

  /// The file's path, or the URL as given (with its password: for `--help`'s default, not for
  /// messages).
  package var description: String {
    switch self {
    case .sqlite(let path): path
    case .postgresql(let url): url
    }
  }

  /// Parses `--db`'s value.
  /// - Throws: `HistoryError` (`badDatabaseURL`) for an empty value or an unknown scheme.
  package init(parsing text: String) throws(HistoryError) {
    if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") {
      self = .postgresql(url: text)
    } else if text.hasPrefix("sqlite:") {
      let path = String(text.dropFirst("sqlite:".count))
      guard !path.isEmpty else {
        throw HistoryError(.badDatabaseURL, "--db sqlite: wants a path after the colon")
      }
      self = .sqlite(path: path)
    } else if let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") {
      throw HistoryError(
        .badDatabaseURL,
        "--db \(text): unknown scheme \(text[..<colon]) (sqlite:PATH, a path, or postgresql://…)")
    } else {
      guard !text.isEmpty else { throw HistoryError(.badDatabaseURL, "--db wants a path, not an empty one") }
      self = .sqlite(path: text)
    }
  }

  /// Opens the store (creating an SQLite file and its folder when missing, or the tables on a
  /// PostgreSQL server, unless `readOnly`).
  /// - Throws: `HistoryError`: the library is missing, the database cannot be opened (or, read
  ///   only, holds no history), or the schema is newer than this bench.
  package func open(readOnly: Bool = false) throws(HistoryError) -> any HistoryStore {
    switch self {
    case .sqlite(let path): return try SQLiteHistoryStore(path: path, readOnly: readOnly)
    case .postgresql(let url): return try PostgreSQLHistoryStore(url: url, readOnly: readOnly)
    }
  }
}
