#if canImport(Glibc)
  import Glibc
#endif
import CPlatformShims

/// A detached POSIX thread running a closure: for the few loops that must block in a system
/// call (reading a control pipe) and so must not sit on a Dispatch queue, without Foundation's
/// `Thread`. The corresponding calls are `pthread_create` and `prctl(PR_SET_NAME)`.
public enum SystemThread {
  private final class Body {
    let name: String
    let run: () -> Void
    init(name: String, _ run: @escaping () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Starts `body` on a new detached thread named `name` (the kernel keeps 15 bytes of it).
  /// - Throws: the ``Errno`` `pthread_create` returned (`EAGAIN` when out of threads).
  public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(Errno) {
    let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
    var thread = pthread_t()
    let rc = pthread_create(
      &thread, nil,
      { raw in
        let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
        _ = CPlatformShims_setCurrentThreadName(String(body.name.utf8.prefix(15)) ?? "")
        body.run()
        return nil
      }, context)
    guard rc == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      throw Errno(rawValue: rc)
    }
    pthread_detach(thread)
  }

  /// Puts the calling thread under `SCHED_FIFO` at `priority` (raised to the lowest the kernel
  /// allows); whether that was allowed. The call is `pthread_setschedparam`.
  public static func requestRealtime(priority: Int32) -> Bool {
    var param = sched_param()
    param.sched_priority = max(sched_get_priority_min(SCHED_FIFO), priority)
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0
  }

  /// Puts the calling thread back under the normal policy (`SCHED_OTHER`, priority 0). The call
  /// is `pthread_setschedparam`.
  public static func dropRealtime() {
    var param = sched_param()
    param.sched_priority = 0
    _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &param)
  }
}

extension SystemThread {
  /// The calling thread's kernel thread id (what cgroup v1's `tasks` file takes). The
  /// corresponding call is `gettid(2)`, made by the C shim.
  public static func currentID() -> pid_t { pid_t(CPlatformShims_currentThreadID()) }
}
