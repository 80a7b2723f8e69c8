#if canImport(Glibc)
  import Glibc
#endif
import SystemCalls

/// The app's lines on stderr, each prefixed with the program's name.
enum StandardError {
  /// Writes `camera-app: <message>` and a newline to stderr (a failed write is ignored: there is
  /// nowhere left to report it).
  static func writeLine(_ message: String) {
    try? FileDescriptorIO.writeAll(STDERR_FILENO, "camera-app: \(message)\n")
  }
}
