/// A bad command line or bad input: one line for stderr, exit status 2.
public struct UsageError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The one line, without the program name.
  public var message: String
  /// Creates the error.
  public init(_ message: String) { self.message = message }
  /// The one line.
  public var description: String { message }
}
