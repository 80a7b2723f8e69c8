#if canImport(Glibc)
  import Glibc
#endif
import CommandLineKit
import BenchKit
import Subprocess
import Synchronization
import SystemCalls

/// Ctrl-C, SIGTERM and SIGHUP set a flag that the runner polls; it then stops the app and the
/// burners, keeps the finished runs, and says where they are. A second signal does not wait for
/// that: it restores the signal's default action and raises it again, so bench ends at once
/// (the finished runs are in the journal; the process guard stops what bench started).
package final class InterruptFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  private let handlers = PThreadMutex<SignalHandlers?>(nil)

  /// Whether a signal arrived.
  package var isSet: Bool { flag.load(ordering: .relaxed) }

  /// Installs the handlers. The note goes to standard error through ``StandardStream``, which
  /// never traps: a closed or full stderr (`bench … 2>&1 | head -2`) drops it.
  package static func install() -> InterruptFlag {
    let f = InterruptFlag()
    // A closed pipe or a file-size limit is an error to report (EPIPE, EFBIG), not a death.
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    let handlers = SignalHandlers(signals: [SIGINT, SIGTERM, SIGHUP]) { @Sendable [f] sig in
      if f.flag.exchange(true, ordering: .relaxed) {
        // The second signal: end now, the way the signal ends a process. Dispatch may keep the
        // signal blocked on its threads (it reads it from a signalfd): unblock it on this one,
        // then raise it here.
        signal(sig, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, sig)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        // Not while a child is being spawned: the guard must know every child's group.
        ChildProcess.withNoSpawnInFlight { _ = raise(sig) }
        return
      }
      var errors = StandardStream.error
      errors.write(
        "\nbench: stopping (signal \(sig)); finished runs are kept (send it again to stop at once)\n")
    }
    f.handlers.withLock { $0 = handlers }
    return f
  }
}
