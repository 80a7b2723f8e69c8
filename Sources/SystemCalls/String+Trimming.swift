extension StringProtocol {
  /// The text without leading and trailing whitespace and newlines (what a `/proc` or `/sys` file
  /// holds around its value), without Foundation.
  public func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }) else { return "" }
    let last = lastIndex(where: { !$0.isWhitespace })!
    return String(self[first...last])
  }
}
