import CSQLiteShims

/// A prepared statement: bind, step, read columns, reset for the next row. Finalized when it
/// goes away. Its `database` outlives it (the statement holds it). As ``SQLRows``, `next()` is
/// `step()`.
package final class SQLiteStatement: SQLRows {
  private let handle: OpaquePointer
  private let database: SQLiteDatabase

  init(_ handle: OpaquePointer, database: SQLiteDatabase) {
    self.handle = handle
    self.database = database
  }

  deinit { _ = CSQLiteShims_finalize(handle) }

  /// Binds `values` to parameters 1, 2, … after resetting the statement (`sqlite3_reset`,
  /// `sqlite3_clear_bindings`): an integer with `sqlite3_bind_int64`, a number with
  /// `sqlite3_bind_double`, text copied by SQLite (`sqlite3_bind_text` with `SQLITE_TRANSIENT`),
  /// NULL with `sqlite3_bind_null`.
  /// - Throws: `HistoryError` when a value cannot be bound.
  package func bind(_ values: [SQLValue]) throws(HistoryError) {
    _ = CSQLiteShims_reset(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .integer(let v): status = CSQLiteShims_bindInt64(handle, index, v)
      case .real(let v): status = CSQLiteShims_bindDouble(handle, index, v)
      case .text(let v): status = CSQLiteShims_bindText(handle, index, v, -1)
      case .null: status = CSQLiteShims_bindNull(handle, index)
      }
      guard status == Int32(CSQLiteShims_OK) else {
        throw database.failure(status, "binding parameter \(index)")
      }
    }
  }

  /// Steps once (`sqlite3_step`): true when a row is ready to read, false when done.
  /// - Throws: `HistoryError` with SQLite's reason on any other result.
  @discardableResult
  package func step() throws(HistoryError) -> Bool {
    let status = CSQLiteShims_step(handle)
    if status == Int32(CSQLiteShims_ROW) { return true }
    if status == Int32(CSQLiteShims_DONE) { return false }
    throw database.failure(status, "stepping a statement")
  }

  /// Steps once: true when a row is ready to read, false when done.
  /// - Throws: `HistoryError` as `step` does.
  package func next() throws(HistoryError) -> Bool { try step() }

  /// Binds `values` and runs the statement to its end (an insert or an update).
  /// - Throws: `HistoryError` as `bind` and `step` do.
  package func run(_ values: [SQLValue]) throws(HistoryError) {
    try bind(values)
    while try step() {}
  }

  /// Column `column` (0-based) as an integer (`sqlite3_column_int64`); 0 for NULL.
  package func integer(_ column: Int32) -> Int64 { CSQLiteShims_columnInt64(handle, column) }
  /// Column `column` as a number (`sqlite3_column_double`); 0 for NULL.
  package func real(_ column: Int32) -> Double { CSQLiteShims_columnDouble(handle, column) }
  /// Calls `body` with column `column`'s UTF-8 bytes (`sqlite3_column_text`; empty for NULL),
  /// valid only during the call: for comparing text without making a `String` per row.
  package func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    guard let bytes = CSQLiteShims_columnText(handle, column) else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    return body(UnsafeBufferPointer(start: bytes, count: Int(CSQLiteShims_columnBytes(handle, column))))
  }

  /// Column `column` as text (`sqlite3_column_text`); nil for NULL.
  package func text(_ column: Int32) -> String? {
    guard CSQLiteShims_columnType(handle, column) != Int32(CSQLiteShims_NULL),
      let bytes = CSQLiteShims_columnText(handle, column)
    else { return nil }
    let count = Int(CSQLiteShims_columnBytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}
