import Foundation
import SystemCalls

/// Polls `condition` every millisecond until it holds (true) or `timeout` passes (false).
/// For waiting on work other threads do; the timeout is a safety net, not a timing assertion
/// (stretched by ``TestTime/scale`` under the sanitizers).
///
/// On a blocking test's thread (TestThreads' `.blocking`) it polls there, holding the thread as
/// a blocking test does (``blockUntil(timeout:every:_:)``): suspended, its next check would queue
/// behind every other blocking test's job, for minutes in a full run, and a state that holds for
/// a while (a bench mid-run) would come and go unseen. Elsewhere it suspends between checks.
package func waitUntil(timeout: Duration = .seconds(120), _ condition: @Sendable () -> Bool) async -> Bool {
  if BlockingThreadMarker.isCurrentThreadMarked() { return blockUntil(timeout: timeout, condition) }
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: TestTime.scaled(timeout))
  while !condition() {
    if clock.now >= deadline { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

/// The blocking form of ``waitUntil(timeout:_:)``, for synchronous tests: checks `condition`
/// every `interval` (1 ms unless said) on the calling thread until it holds (true) or `timeout`
/// passes (false). The timeout is a safety net, not a timing assertion (stretched by
/// ``TestTime/scale`` under the sanitizers).
package func blockUntil(
  timeout: Duration = .seconds(120), every interval: Duration = .milliseconds(1), _ condition: () -> Bool
) -> Bool {
  let deadline = MonotonicClock.now() &+ nanoseconds(TestTime.scaled(timeout))
  let reachedDeadline = MonotonicClock.sleep(
    until: deadline, slice: max(1, nanoseconds(interval)), shouldStop: condition)
  return !reachedDeadline || condition()
}

/// `duration` in whole nanoseconds (0 for a negative one).
func nanoseconds(_ duration: Duration) -> UInt64 {
  let (seconds, attoseconds) = duration.components
  guard seconds >= 0 else { return 0 }
  return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
}

/// Whether the calling thread is one of the blocking tests' (TestThreads'
/// `BlockingTestExecutor` marks its threads' `threadDictionary` under this key).
enum BlockingThreadMarker {
  /// The key, as TestThreads' `BlockingTestExecutor.threadMarker` spells it.
  static let key = "firstframe.blocking-test-thread"

  /// Whether the calling thread carries the mark.
  static func isCurrentThreadMarked() -> Bool {
    Thread.current.threadDictionary[key] as? Bool == true
  }
}
