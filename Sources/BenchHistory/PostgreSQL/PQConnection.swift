import CPQShims
import Foundation

/// One PostgreSQL connection through libpq: the one place the PostgreSQL store's SQL reaches the
/// server (each call goes through one method here, over `CPQShims`). Parameters and results
/// travel as text. Used from one thread at a time; not `Sendable`.
package final class PQConnection {
  /// The connection handle (`PGconn *`).
  private let handle: OpaquePointer
  /// The URL or keyword string it was opened with, its passwords shown as `***`, for messages.
  package let name: String
  /// The URL or keyword string it was opened with, whose secrets every message leaves out.
  private let conninfo: String

  /// Loads libpq if needed and connects to `url` (`postgresql://…`, `postgres://…` or a keyword
  /// string `host=… dbname=…`; the `PG*` environment variables fill what it leaves out). The
  /// corresponding C call is `PQconnectdb`.
  /// - Throws: `HistoryError`: `libraryMissing`, or `cannotOpen` with libpq's reason.
  package init(url: String, library: String = PQLibrary.defaultPath) throws(HistoryError) {
    try PQLibrary.load(path: library)
    name = PQConnectionInfo.redacting(url, secretsOf: url)
    conninfo = url
    guard let connection = CPQShims_connect(url) else {
      throw HistoryError(
        .cannotOpen, "cannot connect to the history database \(name)", cause: "out of memory")
    }
    guard CPQShims_status(connection) == Int32(CPQShims_CONNECTION_OK) else {
      let reason = PQConnectionInfo.redacting(
        Self.oneLine(String(cString: CPQShims_errorMessage(connection))), secretsOf: url)
      CPQShims_finish(connection)
      throw HistoryError(.cannotOpen, "cannot connect to the history database \(name)", cause: reason)
    }
    handle = connection
  }

  deinit { CPQShims_finish(handle) }

  /// The rows a statement returned, as text.
  package struct Rows {
    /// Each row's columns; nil for SQL NULL.
    package var rows: [[String?]]
    /// Row `row`, column `column` as an integer (0 for NULL or not a number).
    package func integer(_ row: Int, _ column: Int) -> Int64 { rows[row][column].flatMap { Int64($0) } ?? 0 }
    /// Row `row`, column `column` as a number (0 for NULL or not a number).
    package func real(_ row: Int, _ column: Int) -> Double { rows[row][column].flatMap { Double($0) } ?? 0 }
  }

  /// Runs statements without parameters (`PQexec`; several may be separated by semicolons).
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  package func execute(_ sql: String) throws(HistoryError) {
    let result = CPQShims_exec(handle, sql)
    defer { if let result { CPQShims_clear(result) } }
    try check(result, sql)
  }

  /// Runs one statement with text parameters `$1`, `$2`, … (nil is NULL) and returns its rows
  /// (`PQexecParams`, text results).
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  @discardableResult
  package func query(_ sql: String, _ parameters: [String?] = []) throws(HistoryError) -> Rows {
    let cursor = PQCursor(try result(sql, parameters))
    var rows: [[String?]] = []
    while try cursor.next() { rows.append((0..<cursor.columns).map { cursor.text($0) }) }
    return Rows(rows: rows)
  }

  /// Runs one statement with text parameters (`PQexecParams`) and returns its result, which the
  /// caller clears (``PQCursor`` does).
  /// - Throws: `HistoryError` (`statementFailed`) with the server's reason and SQLSTATE.
  func result(_ sql: String, _ parameters: [String?]) throws(HistoryError) -> OpaquePointer? {
    let result = Self.withCStrings(parameters) { values in
      CPQShims_execParams(handle, sql, Int32(parameters.count), values)
    }
    do {
      try check(result, sql)
    } catch {
      if let result { CPQShims_clear(result) }
      throw error
    }
    return result
  }

  /// Runs `body` in one transaction (`BEGIN`, read committed), committing when it returns and
  /// rolling back when it throws. A transaction the server ended as a serialization failure or
  /// a deadlock (SQLSTATE `40001`, `40P01`) is run again, up to five times.
  /// - Throws: `HistoryError` from `body`, or when the transaction cannot begin or commit.
  package func transaction<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T {
    var attempt = 0
    while true {
      attempt += 1
      try execute("BEGIN")
      do {
        let value = try body()
        try execute("COMMIT")
        return value
      } catch {
        try? execute("ROLLBACK")
        let retryable = error.cause.map { $0.hasPrefix("40001") || $0.hasPrefix("40P01") } ?? false
        if !retryable || attempt >= 5 { throw error }
      }
    }
  }

  /// Throws the server's error for `result`, unless it succeeded.
  private func check(_ result: OpaquePointer?, _ sql: String) throws(HistoryError) {
    guard let result else {
      throw HistoryError(
        .statementFailed, "the history database \(name) failed running \(sql.prefix(60))",
        cause: reason(CPQShims_errorMessage(handle)))
    }
    let status = CPQShims_resultStatus(result)
    guard status != Int32(CPQShims_PGRES_COMMAND_OK) && status != Int32(CPQShims_PGRES_TUPLES_OK) else {
      return
    }
    let state = CPQShims_resultSQLState(result).map { String(cString: $0) } ?? "?????"
    throw HistoryError(
      .statementFailed, "the history database \(name) failed running \(sql.prefix(60))",
      cause: state + " " + reason(CPQShims_resultErrorMessage(result)))
  }

  /// libpq's message `text` on one line, the connection's secrets left out.
  private func reason(_ text: UnsafePointer<CChar>) -> String {
    PQConnectionInfo.redacting(Self.oneLine(String(cString: text)), secretsOf: conninfo)
  }

  /// libpq's text on one line (its messages end with a newline and may hold several).
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
      separator: " ")
  }

  /// Calls `body` with `strings` as an array of C strings (NULL for nil), valid during the call.
  private static func withCStrings<R>(
    _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R
  ) -> R {
    guard !strings.isEmpty else { return body(nil) }
    let storage: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0) } ?? nil }
    defer { for pointer in storage { free(pointer) } }
    let values: [UnsafePointer<CChar>?] = storage.map { $0.map { UnsafePointer($0) } }
    return values.withUnsafeBufferPointer { body($0.baseAddress) }
  }
}
