import PhaseTrace
import Synchronization
import SystemCalls

/// The preview layer: presents every frame to a display, synchronously on the device's frame thread.
///
/// Deferred start is supported but disabled by default: preview is what launch waits for. Right after
/// the first present after each `startRunning()` it emits `preview.first_present` (field
/// `capture_time_ns`, the frame's capture time in ns) and, in automatic mode, lets the session run
/// deferred start. The event is stamped with the display's present time
/// (`DisplaySink.presentStamped(_:)`), read before the frame became visible to the compositor, so
/// the probe can never see the frame before the app says it presented it.
public final class PreviewOutput: CaptureOutput, @unchecked Sendable {
  // @unchecked Sendable: state is behind the base class's `base` mutex and this class's own mutexes.

  /// Where frames go.
  public let display: any DisplaySink
  // Guards the per-start first-present flag and the present count.
  private let presentation = PThreadMutex<(presentedSinceStart: Bool, presentedFrames: Int)>((false, 0))
  /// Called after the first present of each run (``setFirstPresentHandler(_:)``).
  private let firstPresentHandler = PThreadMutex<(@Sendable () -> Void)?>(nil)

  /// Creates a preview output presenting into `display`.
  public init(display: any DisplaySink) {
    self.display = display
    super.init(kind: .preview, isDeferredStartSupported: true, isDeferredStartEnabledByDefault: false)
  }

  /// Sets what runs right after the first present of each `startRunning()` (after
  /// `preview.first_present`), on the frame thread: it must return at once (hand work to a
  /// queue). This is how an app learns that preview is up — AVFoundation's preview layer says it
  /// with `isPreviewing` — to start the work the first frame must not compete with.
  public func setFirstPresentHandler(_ handler: (@Sendable () -> Void)?) {
    firstPresentHandler.withLock { $0 = handler }
  }

  /// How many frames this output has presented, over all runs.
  public var presentedFrames: Int { presentation.withLock { $0.presentedFrames } }

  override func sessionWillStartStreaming(format: CaptureFormat, frameRate: Double) {
    presentation.withLock { $0.presentedSinceStart = false }
  }

  override func sessionDidStopRunning() {
    presentation.withLock { $0.presentedSinceStart = false }
  }

  override func receive(_ frame: VideoFrame) {
    let presentedAt = display.presentStamped(frame)
    let isFirst = presentation.withLock { state -> Bool in
      state.presentedFrames += 1
      defer { state.presentedSinceStart = true }
      return !state.presentedSinceStart
    }
    guard isFirst else { return }
    signposter.event(
      .previewFirstPresent,
      fields: ["capture_time_ns": .int(Int64(clamping: frame.captureTime))], at: presentedAt)
    session?.outputDidPresentFirstFrame(self)
    firstPresentHandler.withLock { $0 }?()
  }
}
