import Dispatch
import Synchronization
import SystemCalls

/// Per-frame analysis at a reduced cadence: a 256-bin luma histogram of every `frameInterval`-th
/// frame this output receives (the 1st, the `1 + frameInterval`-th, …), computed on the output's own
/// serial queue and handed to the handler on the handler's queue.
///
/// Deferred start is supported and enabled by default. When more than `maxPendingAnalyses`
/// histograms wait for the analysis queue, further sampled frames are skipped and counted.
public final class AnalysisOutput: CaptureOutput, @unchecked Sendable {
  // @unchecked Sendable: state is behind the base class's `base` mutex and this class's own mutexes.

  /// Sampled frames that may wait for the analysis queue before newer ones are skipped.
  public static let maxPendingAnalyses = 8

  /// Every how many received frames one is analysed (≥ 1).
  public let frameInterval: Int

  private struct State {
    var handler: (@Sendable (LumaHistogram) -> Void)?
    var handlerQueue: DispatchQueue?
    var received = 0
    var pending = 0
    var analysed = 0
    var skipped = 0
  }

  private let analysis = PThreadMutex(State())
  private let analysisQueue = DispatchQueue(label: "firstframe.capture.analysis", qos: .utility)

  /// Creates an analysis output sampling every `frameInterval`-th frame (values below 1 count as 1).
  public init(frameInterval: Int = 4) {
    self.frameInterval = max(1, frameInterval)
    super.init(kind: .analysis, isDeferredStartSupported: true, isDeferredStartEnabledByDefault: true)
  }

  /// Sets the function that receives histograms, run on `queue`.
  public func setHistogramHandler(
    queue: DispatchQueue, _ handler: @escaping @Sendable (LumaHistogram) -> Void
  ) {
    analysis.withLock {
      $0.handler = handler
      $0.handlerQueue = queue
    }
  }

  /// Frames received since the output was initialised.
  public var receivedFrames: Int { analysis.withLock { $0.received } }
  /// Histograms computed so far.
  public var analysedFrames: Int { analysis.withLock { $0.analysed } }
  /// Sampled frames skipped because the analysis queue fell behind.
  public var skippedFrames: Int { analysis.withLock { $0.skipped } }

  override func receive(_ frame: VideoFrame) {
    let sampled = analysis.withLock { state -> Bool in
      defer { state.received += 1 }
      guard state.received % frameInterval == 0 else { return false }
      guard state.pending < AnalysisOutput.maxPendingAnalyses else {
        state.skipped += 1
        return false
      }
      state.pending += 1
      return true
    }
    guard sampled else { return }
    analysisQueue.async { [self] in
      let histogram = LumaHistogram(frame: frame)
      let target = analysis.withLock { state -> (DispatchQueue, @Sendable (LumaHistogram) -> Void)? in
        state.pending -= 1
        state.analysed += 1
        guard let queue = state.handlerQueue, let handler = state.handler else { return nil }
        return (queue, handler)
      }
      if let (queue, handler) = target { queue.async { handler(histogram) } }
    }
  }
}
