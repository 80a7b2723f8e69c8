import CPQShims

/// The rows of one libpq result, read in place one at a time (no copy of the whole result as
/// strings); the result is cleared when the cursor goes away (`PQclear`).
package final class PQCursor: SQLRows {
  /// The result (`PGresult *`); nil for a statement that returned none.
  private let result: OpaquePointer?
  /// How many rows it holds (`PQntuples`).
  private let count: Int32
  /// The current row; -1 before the first.
  private var row: Int32 = -1
  /// How many columns each row has (`PQnfields`).
  let columns: Int32

  /// Takes over `result`.
  init(_ result: OpaquePointer?) {
    self.result = result
    count = result.map { Int32(CPQShims_rows($0)) } ?? 0
    columns = result.map { Int32(CPQShims_columns($0)) } ?? 0
  }

  deinit { if let result { CPQShims_clear(result) } }

  /// Moves to the next row.
  package func next() throws(HistoryError) -> Bool {
    guard row + 1 < count else { return false }
    row += 1
    return true
  }

  /// Column `column` as an integer (0 for NULL or not a number).
  package func integer(_ column: Int32) -> Int64 { text(column).flatMap { Int64($0) } ?? 0 }

  /// Column `column` as a number (0 for NULL or not a number).
  package func real(_ column: Int32) -> Double { text(column).flatMap { Double($0) } ?? 0 }

  /// Column `column` as text (`PQgetvalue`); nil for NULL (`PQgetisnull`).
  package func text(_ column: Int32) -> String? {
    guard let result, CPQShims_isNull(result, row, column) == 0,
      let bytes = CPQShims_value(result, row, column)
    else { return nil }
    return String(cString: bytes)
  }

  /// Calls `body` with column `column`'s bytes (`PQgetvalue`, `PQgetlength`; empty for NULL).
  package func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    guard let result, let bytes = CPQShims_value(result, row, column) else {
      return body(UnsafeBufferPointer(start: nil, count: 0))
    }
    let length = Int(CPQShims_length(result, row, column))
    return bytes.withMemoryRebound(to: UInt8.self, capacity: length) {
      body(UnsafeBufferPointer(start: $0, count: length))
    }
  }
}
