/// Why the history database could not do what was asked: a code to act on, a message a person
/// can act on, and the cause (SQLite's, the PostgreSQL server's or dlopen's own text).
package struct HistoryError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure it is; the command line turns `badDatabaseURL` and `cannotOpen` into
  /// usage errors (exit status 2) and the rest into exit status 1.
  package enum Code: Sendable, Hashable {
    /// The database library (libsqlite3.so.0, or libpq.so.5 for PostgreSQL) could not be loaded.
    case libraryMissing
    /// `--db` names no back end this bench knows.
    case badDatabaseURL
    /// The database file could not be opened or created.
    case cannotOpen
    /// The database was written by a newer bench: its schema version is above this bench's.
    case schemaTooNew
    /// A statement failed (SQLite's result code is in `cause`).
    case statementFailed
    /// A report file (`show --svg`) could not be written.
    case cannotWrite
  }

  /// The kind of failure.
  package var code: Code
  /// One line saying what went wrong and what to do.
  package var message: String
  /// The underlying text: SQLite's `sqlite3_errmsg`, the server's SQLSTATE and message (libpq),
  /// dlopen's `dlerror`, or nil.
  package var cause: String?

  /// Creates an error.
  package init(_ code: Code, _ message: String, cause: String? = nil) {
    self.code = code
    self.message = message
    self.cause = cause
  }

  /// The message, with its cause after a colon when there is one.
  package var description: String { cause.map { "\(message): \($0)" } ?? message }
}
