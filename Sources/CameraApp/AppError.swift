/// Why the app stopped: one line for stderr and the exit status that goes with it.
public struct AppError: Error, CustomStringConvertible, Equatable {
  /// What went wrong.
  public enum Code: Sendable {
    /// Bad command line, profile or environment: exit status 2.
    case usage
    /// The camera could not be opened, configured or started: exit status 1.
    case camera
  }
  /// The kind of failure.
  public var code: Code
  /// One line a person can act on.
  public var message: String
  /// The exit status that goes with `code`.
  public var exitStatus: Int32 { code == .usage ? 2 : 1 }
  /// The message.
  public var description: String { message }

  /// A usage error.
  public static func usage(_ message: String) -> AppError { AppError(code: .usage, message: message) }
  /// A camera error.
  public static func camera(_ message: String) -> AppError { AppError(code: .camera, message: message) }
}
