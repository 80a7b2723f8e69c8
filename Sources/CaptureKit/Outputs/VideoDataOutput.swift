import Dispatch
import Synchronization
import SystemCalls

/// Frames to the app, which renders preview (or anything else) itself.
///
/// Deferred start is supported but disabled by default: an app that renders preview from this output
/// needs it for launch, and should use manual deferred start (`runDeferredStartWhenNeeded()` after its
/// own first present). In automatic mode, when the session has no undeferred `PreviewOutput`, the first
/// frame this output hands to the app's handler (the handler has returned) triggers deferred start.
///
/// Late frames are dropped: while the handler is still busy with one frame, newer frames are
/// discarded and counted in `droppedFrames`.
public final class VideoDataOutput: CaptureOutput, @unchecked Sendable {
  // @unchecked Sendable: state is behind the base class's `base` mutex and this class's own mutexes.

  private struct Delivery {
    var handler: (@Sendable (VideoFrame) -> Void)?
    var queue: DispatchQueue?
    var inFlight = false
    var deliveredSinceStart = false
    var delivered = 0
    var dropped = 0
  }

  private let delivery = PThreadMutex(Delivery())

  /// Creates a video data output with no handler.
  public init() {
    super.init(kind: .videoData, isDeferredStartSupported: true, isDeferredStartEnabledByDefault: false)
  }

  /// Sets the function that receives frames, run on `queue` (a serial queue), one frame at a time.
  public func setFrameHandler(queue: DispatchQueue, _ handler: @escaping @Sendable (VideoFrame) -> Void) {
    delivery.withLock {
      $0.handler = handler
      $0.queue = queue
    }
  }

  /// Frames handed to the handler so far.
  public var deliveredFrames: Int { delivery.withLock { $0.delivered } }
  /// Frames discarded because the handler was still busy.
  public var droppedFrames: Int { delivery.withLock { $0.dropped } }

  override func sessionWillStartStreaming(format: CaptureFormat, frameRate: Double) {
    delivery.withLock { $0.deliveredSinceStart = false }
  }

  override func receive(_ frame: VideoFrame) {
    enum Action {
      case drop, deliverNow(DispatchQueue, @Sendable (VideoFrame) -> Void), noHandler(first: Bool)
    }
    let action = delivery.withLock { state -> Action in
      guard let handler = state.handler, let queue = state.queue else {
        defer { state.deliveredSinceStart = true }
        return .noHandler(first: !state.deliveredSinceStart)
      }
      if state.inFlight {
        state.dropped += 1
        return .drop
      }
      state.inFlight = true
      return .deliverNow(queue, handler)
    }
    switch action {
    case .drop:
      return
    case .noHandler(let first):
      if first { session?.outputDidPresentFirstFrame(self) }
    case .deliverNow(let queue, let handler):
      queue.async { [self] in
        handler(frame)
        let first = delivery.withLock { state -> Bool in
          state.inFlight = false
          state.delivered += 1
          defer { state.deliveredSinceStart = true }
          return !state.deliveredSinceStart
        }
        if first { session?.outputDidPresentFirstFrame(self) }
      }
    }
  }
}
