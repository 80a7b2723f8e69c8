/// A statement's parameters as it is written: each value added gets the next number, and the
/// text that refers to it in the statement's dialect.
struct SQLParameters<Dialect: SQLDialect> {
  /// The dialect the statement is written in.
  let dialect: Dialect
  /// The values, parameter 1 first.
  private(set) var values: [SQLValue] = []

  /// No parameters yet.
  init(_ dialect: Dialect) { self.dialect = dialect }

  /// Adds `text` as the next parameter and returns how the statement refers to it.
  mutating func add(_ text: String) -> String {
    values.append(.text(text))
    return dialect.parameter(values.count, .text)
  }
}
