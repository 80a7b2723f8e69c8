#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

/// Process-control calls that Swift cannot import directly, with errno in one place.
public enum ProcessControl {
  /// Asks the kernel to send `signal` to the calling process when its parent dies.
  /// The corresponding call is `prctl(PR_SET_PDEATHSIG, signal)`.
  public static func setParentDeathSignal(_ signal: Int32) throws(Errno) {
    _ = try SystemCall.retrying { CPlatformShims_setParentDeathSignal(signal) }
  }

  /// A pipe whose both ends are close-on-exec: `(read, write)`. The corresponding call is
  /// `pipe2(fds, O_CLOEXEC)`.
  public static func pipe() throws(Errno) -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    _ = try SystemCall.retrying { CPlatformShims_pipeCloexec(&fds) }
    return (fds[0], fds[1])
  }

  /// The C name of `signal` (`SIGSEGV`), or its number.
  public static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT",
      SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP", SIGPIPE: "SIGPIPE",
      SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM",
    ]
    return names[signal] ?? "\(signal)"
  }
}
