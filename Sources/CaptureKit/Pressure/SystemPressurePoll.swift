import Dispatch
import Synchronization
import SystemCalls

/// A running `SystemPressureMonitor.poll`: cancel it to stop polling (also stops when released).
public final class SystemPressurePoll: Sendable {
  /// `@unchecked Sendable`: Dispatch sources are thread-safe objects; the box is only read and
  /// written under `timer`'s mutex.
  struct TimerBox: @unchecked Sendable {
    let source: any DispatchSourceTimer
  }

  private let timer = PThreadMutex<TimerBox?>(nil)

  init() {}

  func install(_ box: TimerBox) {
    timer.withLock { $0 = box }
  }

  /// Stops polling; the handler is not called after the current call (if any) returns.
  public func cancel() {
    let box = timer.withLock { current -> TimerBox? in
      defer { current = nil }
      return current
    }
    box?.source.cancel()
  }

  deinit {
    cancel()
  }
}
