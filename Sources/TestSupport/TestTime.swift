import LaunchContract
import Foundation

/// How much longer than usual the tests' safety nets are: `$FIRSTFRAME_TEST_TIME_SCALE`, a whole
/// number from 1 to 100 (1 when unset or not such a number).
///
/// Sanitizer builds run many times slower (ThreadSanitizer about 5–15×, AddressSanitizer about
/// 2–3×, and the processes the tests start are built the same way), so `scripts/sanitize` sets
/// it; a normal `swift test` keeps the deadlines as written. It stretches every wait in
/// TestSupport (``waitUntil(timeout:_:)``, ``blockUntil(timeout:every:_:)`` and what is built on
/// them: ``TestProcess``, ``BenchInvocation``, the recorders' waits) and, through
/// ``minutes(_:)``, the `.timeLimit` traits. Deadlines are safety nets, never timing assertions,
/// so stretching them changes no outcome of a passing test.
package enum TestTime {
  /// The factor, 1…100.
  package static let scale: Int = {
    guard let text = HarnessVariable.testTimeScale.value,
      let value = Int(text), (1...100).contains(value)
    else { return 1 }
    return value
  }()

  /// `minutes` stretched by ``scale``: for `.timeLimit(.minutes(TestTime.minutes(2)))`.
  package static func minutes(_ minutes: Int) -> Int { minutes * scale }

  /// `duration` stretched by ``scale``.
  package static func scaled(_ duration: Duration) -> Duration { duration * scale }

  /// `seconds` stretched by ``scale``, for the waits that take seconds as a number
  /// (`ChildProcess.wait(timeout:)`, a `Date` or `DispatchTime` deadline).
  package static func seconds(_ seconds: Double) -> Double { seconds * Double(scale) }
}
