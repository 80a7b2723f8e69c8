/// Where the history lives (`--db`): a plain path or `sqlite:PATH` is an SQLite file;
/// `postgresql://…` or `postgres://…` (libpq's URI) or a libpq keyword string
/// (`host=/run/postgresql dbname=history`) is a PostgreSQL server (docs/history.md).
package enum HistoryDatabaseURL: Sendable, Hashable, CustomStringConvertible {
  /// An SQLite file at this path.
  case sqlite(path: String)
  /// A PostgreSQL server: libpq's URI or keyword string, as given.
  case postgresql(url: String)

  /// The default: `Results/history.sqlite`, relative to the working directory.
  package static let defaultPath = "Results/history.sqlite"

  /// The default database: the SQLite file at ``defaultPath``.
  package static let `default` = HistoryDatabaseURL.sqlite(path: defaultPath)

  /// The file's path, or the connection string with its passwords shown as `***`.
  package var description: String {
    switch self {
    case .sqlite(let path): path
    case .postgresql(let url): PQConnectionInfo.redacting(url, secretsOf: url)
    }
  }

  /// Parses `--db`'s value.
  /// - Throws: `HistoryError` (`badDatabaseURL`) for an empty value, an unknown scheme, or what
  ///   starts like a keyword string (`word=… word=…`) with a word libpq does not know.
  package init(parsing text: String) throws(HistoryError) {
    if PQConnectionInfo.isURI(text) {
      self = .postgresql(url: text)
    } else if let keyword = PQConnectionInfo.leadingKeyword(text) {
      guard PQConnectionInfo.keywords.contains(keyword.lowercased()) else {
        throw HistoryError(
          .badDatabaseURL,
          "--db \(PQConnectionInfo.redacting(text, secretsOf: text)): \(keyword) is not a libpq connection keyword (host=, dbname=, user=, …); an SQLite file whose name has = is sqlite:PATH"
        )
      }
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
        "--db \(PQConnectionInfo.masked(text)): unknown scheme \(text[..<colon]) (sqlite:PATH, a path, postgresql://… or host=… dbname=…)"
      )
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
