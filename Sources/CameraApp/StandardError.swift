import CommandLineKit

/// The app's lines on stderr, each prefixed with the program's name.
enum StandardError {
  /// Writes `camera-app: <message>` and a newline to stderr through ``StandardStream``, the one
  /// writer that never traps (a failed write is dropped: there is nowhere left to report it).
  static func writeLine(_ message: String) {
    var errors = StandardStream.error
    errors.write("camera-app: \(message)\n")
  }
}
