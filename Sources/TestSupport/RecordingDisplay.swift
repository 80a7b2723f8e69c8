import CaptureKit
import PhaseTrace
import SystemCalls

/// A display that remembers what was presented, and optionally writes `test.present` (field
/// `sequence`) and `test.present_black` into a trace so tests can order presents against other events.
package final class RecordingDisplay: DisplaySink {
  /// One call to the display.
  package enum Presentation: Sendable, Hashable {
    /// A frame, by its sequence number and capture time (ns).
    case frame(sequence: UInt64, captureTime: UInt64)
    /// `presentBlack()`.
    case black
  }

  private let presented = PThreadMutex<[Presentation]>([])
  private let signposter: Signposter?

  /// Creates a display; with `trace`, each present is also recorded there.
  package init(trace: InMemoryTrace? = nil) {
    self.signposter = trace.map { Signposter(sink: $0) }
  }

  /// Records `frame`.
  package func present(_ frame: VideoFrame) {
    presented.withLock { $0.append(.frame(sequence: frame.sequence, captureTime: frame.captureTime)) }
    signposter?.event("test.present", fields: ["sequence": .int(Int64(frame.sequence))])
  }

  /// Records a black present.
  package func presentBlack() {
    presented.withLock { $0.append(.black) }
    signposter?.event("test.present_black")
  }

  /// Every present, in order.
  package var presentations: [Presentation] { presented.withLock { $0 } }

  /// The sequence numbers of the presented frames, in order.
  package var presentedSequences: [UInt64] {
    presentations.compactMap { if case .frame(let s, _) = $0 { s } else { nil } }
  }
}
