import SystemCalls

/// Why a CPU cap could not be applied, read back or undone: which file, what was being done, and
/// the kernel's answer.
package struct CPUCapError: Error, Sendable, CustomStringConvertible {
  /// What was being done, as a person would say it (`cannot write cpu.cfs_quota_us`).
  package var message: String
  /// The file involved.
  package var path: String
  /// The kernel's answer, when a system call failed.
  package var errno: Errno?

  /// Creates an error.
  package init(_ message: String, path: String, errno: Errno? = nil) {
    self.message = message
    self.path = path
    self.errno = errno
  }

  /// One line: the message, the file and the errno's name and text.
  package var description: String {
    "\(message) (\(path)\(errno.map { ": \($0.name), \($0.message)" } ?? ""))"
  }
}
