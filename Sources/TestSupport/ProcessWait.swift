import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Process {
  /// Waits until the process ends, at most `timeout` (stretched by ``TestTime/scale``); a process
  /// still running then is killed (SIGKILL) and waited for 10 s more. Returns whether it ended by
  /// itself in time. For tests: Foundation's `waitUntilExit()` has no deadline, so a process that
  /// hangs would hang the test. Read `terminationStatus` only after a `true` (or once
  /// `isRunning` is false): Foundation traps on a process that still runs.
  @discardableResult
  package func waitUntilExit(timeout: Duration) -> Bool {
    if blockUntil(timeout: timeout, every: .milliseconds(5), { !isRunning }) { return true }
    kill(processIdentifier, SIGKILL)
    _ = blockUntil(timeout: .seconds(10), every: .milliseconds(5)) { !isRunning }
    return false
  }
}
