/// A value bound to a statement's parameter or stored in a column, in any back end.
package enum SQLValue: Sendable, Hashable {
  /// A 64-bit integer.
  case integer(Int64)
  /// A floating-point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// SQL NULL.
  case null

  /// The value as text, as a back end that passes every parameter as text (libpq) sends it:
  /// numbers in Swift's shortest round-tripping form; nil for NULL.
  package var text: String? {
    switch self {
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .text(let value): value
    case .null: nil
    }
  }
}
