/// The rows a statement returns, read one at a time: ``next()`` moves to the next row, then its
/// columns (numbered from 0) are read. The back end's own cursor (an SQLite statement, a libpq
/// result); not `Sendable`.
package protocol SQLRows {
  /// Moves to the next row: true when there is one, false after the last.
  /// - Throws: `HistoryError` when the database fails while producing it.
  func next() throws(HistoryError) -> Bool
  /// Column `column` of the current row as an integer; 0 for NULL.
  func integer(_ column: Int32) -> Int64
  /// Column `column` as a number; 0 for NULL.
  func real(_ column: Int32) -> Double
  /// Column `column` as text; nil for NULL.
  func text(_ column: Int32) -> String?
  /// Calls `body` with column `column`'s UTF-8 bytes (empty for NULL), valid only during the
  /// call: for comparing text without making a `String` per row.
  func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T
}
