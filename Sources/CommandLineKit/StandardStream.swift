import SystemCalls

/// Standard output or standard error as an unbuffered `TextOutputStream`, so that a command
/// writes to whatever stream it is given (tests pass a `String`).
package struct StandardStream: TextOutputStream, Sendable {
  /// The file descriptor written to.
  package let fileDescriptor: Int32

  /// Standard output (file descriptor 1).
  package static var output: StandardStream { StandardStream(fileDescriptor: 1) }
  /// Standard error (file descriptor 2).
  package static var error: StandardStream { StandardStream(fileDescriptor: 2) }

  /// Writes all of `string` at once. The corresponding call is `write(2)`; a failure (a closed
  /// pipe) drops the text, as there is nowhere left to report it.
  package mutating func write(_ string: String) {
    try? FileDescriptorIO.writeAll(fileDescriptor, string)
  }
}
