#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

extension ProcessControl {
  /// The children this process started with ``spawn(path:arguments:environment:descriptors:deathSignal:)``
  /// and has not reaped yet. Any other child is an orphan re-parented to it as a subreaper
  /// (``becomeChildSubreaper()``). Listed under this lock before another thread can see the pid.
  public static let ownChildren = PThreadMutex<Set<pid_t>>([])

  /// Processes this process did not start but owns (the Xwayland that wlroots double-forks for
  /// bench's private sway, re-parented to it): an orphan listed here is not an escape of the
  /// app's. By pid, not by process group: an app may move a process of its own into another
  /// group of the session. Its owner adds the pid once the helper is ready and removes it once
  /// the helper is stopped.
  public static let ownOrphans = PThreadMutex<Set<pid_t>>([])

  /// Whether this process became a child subreaper (``becomeChildSubreaper()``) .
  private static let subreaper = PThreadMutex<Bool>(false)

  /// Makes this process a child subreaper: an orphan among its descendants (a process whose
  /// parent ended: a double fork, or what a `setsid` left behind when the app ended) becomes its
  /// child rather than init's, so that it can be found, killed and reaped. The corresponding
  /// call is `prctl(PR_SET_CHILD_SUBREAPER, 1)`.
  public static func becomeChildSubreaper() throws(Errno) {
    _ = try SystemCall.retrying { CPlatformShims_becomeChildSubreaper() }
    subreaper.withLock { $0 = true }
  }

  /// Whether ``becomeChildSubreaper()`` succeeded in this process.
  public static var isChildSubreaper: Bool { subreaper.withLock { $0 } }

  /// Reaps the process `pid` if it is an ended child that this process did not start itself (a
  /// re-parented orphan); true when it was reaped. The corresponding call is
  /// `waitpid(pid, &status, WNOHANG)`.
  public static func reapOrphan(_ pid: pid_t) -> Bool {
    guard !ownChildren.withLock({ $0.contains(pid) }) else { return false }
    var status: Int32 = 0
    return (try? SystemCall.retrying { waitpid(pid, &status, WNOHANG) }) == pid
  }
}
