#if canImport(Glibc)
  import Glibc
#endif

extension ProcessControl {
  /// Waits until the child `pid` ends, reaps it and returns its wait status (decode it with
  /// ``exitCode(ofStatus:)`` and ``signal(ofStatus:)``). The corresponding call is
  /// `waitpid(pid, &status, 0)`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `waitpid` (`ECHILD`: not a child of this process, or reaped already).
  public static func waitForExit(_ pid: pid_t) throws(Errno) -> Int32 {
    var status: Int32 = 0
    _ = try SystemCall.retrying { waitpid(pid, &status, 0) }
    ownChildren.withLock { _ = $0.remove(pid) }
    return status
  }

  /// Reaps the child `pid` if it has ended and returns its wait status; nil while it runs.
  /// The corresponding call is `waitpid(pid, &status, WNOHANG)`, `EINTR` retried.
  /// - Throws: the ``Errno`` of `waitpid` (`ECHILD`: not a child of this process, or reaped already).
  public static func reapIfEnded(_ pid: pid_t) throws(Errno) -> Int32? {
    var status: Int32 = 0
    guard try SystemCall.retrying({ waitpid(pid, &status, WNOHANG) }) != 0 else { return nil }
    ownChildren.withLock { _ = $0.remove(pid) }
    return status
  }

  /// The exit code in a wait `status` (`WEXITSTATUS`), or nil when a signal ended the process.
  public static func exitCode(ofStatus status: Int32) -> Int32? {
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: spelled out.
    status & 0x7f == 0 ? (status >> 8) & 0xff : nil
  }

  /// The signal that ended the process in a wait `status` (`WTERMSIG`), or nil when it exited.
  public static func signal(ofStatus status: Int32) -> Int32? {
    status & 0x7f == 0 ? nil : status & 0x7f
  }

  /// Whether a process `pid` exists (a zombie not yet reaped counts); false only when the kernel
  /// says there is none (`ESRCH`), so a process of another user counts. The corresponding call is
  /// `kill(pid, 0)`.
  public static func isAlive(_ pid: pid_t) -> Bool {
    do {
      _ = try SystemCall.retrying { kill(pid, 0) }
      return true
    } catch {
      return error != Errno(rawValue: ESRCH)
    }
  }
}
