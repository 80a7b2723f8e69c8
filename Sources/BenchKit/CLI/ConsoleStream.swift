import Foundation

/// Standard output or standard error as a `TextOutputStream`, so commands can take any stream
/// (tests pass a `String`).
public struct ConsoleStream: TextOutputStream, Sendable {
  private let fd: Int32
  /// Standard output.
  public static var standardOutput: ConsoleStream { ConsoleStream(fd: 1) }
  /// Standard error.
  public static var standardError: ConsoleStream { ConsoleStream(fd: 2) }

  /// Writes `string` unbuffered. The corresponding call is `write(2)`.
  public mutating func write(_ string: String) {
    var bytes = Array(string.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset)
      }
      if n < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += n
    }
  }
}
