/// Why the app stopped: one line for stderr and the exit status that goes with it.
package struct AppError: Error, CustomStringConvertible, Equatable {
  /// What went wrong.
  package enum Code: Sendable {
    /// Bad command line, profile or environment: exit status 2.
    case usage
    /// The camera could not be opened, configured or started: exit status 1.
    case camera
  }
  /// The kind of failure.
  package var code: Code
  /// One line a person can act on.
  package var message: String
  /// The exit status that goes with `code`.
  package var exitStatus: Int32 { code == .usage ? 2 : 1 }
  /// The message.
  package var description: String { message }

  /// A usage error.
  package static func usage(_ message: String) -> AppError { AppError(code: .usage, message: message) }
  /// A camera error.
  package static func camera(_ message: String) -> AppError { AppError(code: .camera, message: message) }
}
