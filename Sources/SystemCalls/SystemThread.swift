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

  /// Puts the calling thread under `SCHED_FIFO` at 10 above the lowest real-time priority; whether
  /// it was allowed (without `CAP_SYS_NICE` or an rtprio limit it is not, and the thread stays
  /// as it was). The corresponding call is `pthread_setschedparam`.
  @discardableResult
  public static func requestRealtimePriority() -> Bool {
    var param = sched_param()
    param.sched_priority = min(sched_get_priority_min(SCHED_FIFO) + 10, sched_get_priority_max(SCHED_FIFO))
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0
  }
}
