/// One connection to a history database, the one place the store's SQL reaches it: statements
/// without parameters, statements with parameters (their placeholders written by the
/// connection's ``dialect``), rows read one at a time, inserts that say the id they generated,
/// and transactions. ``SQLHistoryStore`` is written against this protocol alone, so a new back
/// end is a connection and a dialect. Used from one thread at a time; not `Sendable`.
package protocol SQLConnection: AnyObject {
  /// How this back end spells what differs between SQL databases.
  associatedtype Dialect: SQLDialect
  /// The rows ``select(_:_:)`` returns.
  associatedtype Cursor: SQLRows

  /// The dialect of the statements this connection runs.
  var dialect: Dialect { get }
  /// The database, for messages (a file's path; a URL without its password).
  var name: String { get }

  /// Runs statements that take no parameters and return no rows the caller reads.
  /// - Throws: `HistoryError` (`statementFailed`) with the database's reason.
  func execute(_ sql: String) throws(HistoryError)

  /// Runs one statement with `values` bound to its parameters 1, 2, …, to its end (an insert,
  /// an update); a connection may keep it prepared for the next call with the same `sql`.
  /// - Throws: `HistoryError` (`statementFailed`) with the database's reason.
  func run(_ sql: String, _ values: [SQLValue]) throws(HistoryError)

  /// Runs one query with `values` bound to its parameters and returns its rows.
  /// - Throws: `HistoryError` (`statementFailed`) with the database's reason.
  func select(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> Cursor

  /// Runs one `INSERT` of one row into a table with an `id` key and returns the id it got, or
  /// nil when it added no row (`ON CONFLICT … DO NOTHING` met an existing one).
  /// - Throws: `HistoryError` (`statementFailed`) with the database's reason.
  func insert(_ sql: String, _ values: [SQLValue]) throws(HistoryError) -> Int64?

  /// Runs `body` in one transaction that writers take in turn, committing when it returns and
  /// rolling back when it throws.
  /// - Throws: `HistoryError` from `body`, or when the transaction cannot begin or commit.
  func transaction<T>(_ body: () throws(HistoryError) -> T) throws(HistoryError) -> T
}
