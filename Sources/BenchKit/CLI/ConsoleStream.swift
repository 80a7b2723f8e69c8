import SystemCalls

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
    // A closed or full stream (`EPIPE`, `ENOSPC`) is not the command's failure: its exit status
    // says how the command went, so the rest of the text is dropped.
    try? FileDescriptorIO.writeAll(fd, string)
  }
}
