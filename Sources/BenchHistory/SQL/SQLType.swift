/// The types of the history's columns and parameters; each dialect names them its own way
/// (``SQLDialect/typeName(_:)``) and may cast parameters to them (``SQLDialect/parameter(_:_:)``).
package enum SQLType: Sendable, Hashable {
  /// A 32-bit integer (counts, run numbers, 0/1 flags).
  case integer
  /// A 64-bit integer: ids and the references to them.
  case bigint
  /// A double-precision number (milliseconds).
  case double
  /// Text.
  case text
}
