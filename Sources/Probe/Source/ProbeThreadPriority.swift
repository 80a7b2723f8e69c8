#if canImport(Glibc)
  import Glibc
#endif

/// The real-time priority the probe threads (X11's, Wayland's) wait and read at where allowed,
/// and the normal priority they convert and analyse at.
enum ProbeThreadPriority {
  /// Puts `thread` at `SCHED_FIFO` (10 above the minimum, `pthread_setschedparam`); whether it
  /// was allowed.
  @discardableResult
  static func enterRealtime(_ thread: pthread_t) -> Bool {
    var param = sched_param()
    param.sched_priority = min(sched_get_priority_min(SCHED_FIFO) + 10, sched_get_priority_max(SCHED_FIFO))
    return pthread_setschedparam(thread, SCHED_FIFO, &param) == 0
  }

  /// Back to normal priority (`SCHED_OTHER`) for the calling thread.
  static func leaveRealtime() {
    var param = sched_param()
    param.sched_priority = 0
    _ = pthread_setschedparam(pthread_self(), SCHED_OTHER, &param)
  }
}
