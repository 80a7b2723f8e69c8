import SystemCalls

/// A failure of the runner itself (not of one run): a struct with a code, a message a person
/// can act on, and the cause (STYLE.md rule 4).
package struct RunnerError: Error, CustomStringConvertible {
  /// What kind of failure.
  package enum Code: Sendable {
    case spawnFailed
    case appNotFound
    case buildFailed
    case outputNotWritable
    case displayFailed
    case interrupted
    /// The runner's private state folder for the apps could not be made.
    case stateFolder
  }
  /// The kind.
  package var code: Code
  /// One line.
  package var message: String
  /// The `errno` of the system call that failed (`posix_spawn`, `pipe2`, `shm_open`), if one did.
  package var errno: Errno?
  /// Creates the error.
  package init(_ code: Code, _ message: String, errno: Errno? = nil) {
    self.code = code
    self.message = message
    self.errno = errno
  }
  /// The one line.
  package var description: String { message }
}
