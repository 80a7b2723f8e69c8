import CaptureKit
import PhaseTrace
import SystemCalls

/// A deferred-start delegate that records its calls (`"will"`, `"did"`) and optionally writes
/// `test.delegate.will` / `test.delegate.did` into a trace.
package final class RecordingDeferredStartDelegate: CaptureSessionDeferredStartDelegate {
  private let calls = PThreadMutex<[String]>([])
  private let signposter: Signposter?

  /// Creates a delegate; with `trace`, each call is also recorded there.
  package init(trace: InMemoryTrace? = nil) {
    self.signposter = trace.map { Signposter(sink: $0) }
  }

  /// Records `will`.
  package func sessionWillRunDeferredStart(_ session: CaptureSession) {
    calls.withLock { $0.append("will") }
    signposter?.event("test.delegate.will")
  }

  /// Records `did`.
  package func sessionDidRunDeferredStart(_ session: CaptureSession) {
    calls.withLock { $0.append("did") }
    signposter?.event("test.delegate.did")
  }

  /// The calls so far, in order.
  package var recordedCalls: [String] { calls.withLock { $0 } }

  /// Waits until `sessionDidRunDeferredStart` has been called. False after `timeout`.
  package func waitForDid(timeout: Duration = .seconds(120)) async -> Bool {
    await waitUntil(timeout: timeout) { self.recordedCalls.contains("did") }
  }
}
