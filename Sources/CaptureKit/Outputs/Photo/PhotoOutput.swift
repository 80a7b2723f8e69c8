import Dispatch
import PhaseTrace
import Synchronization
import SystemCalls

/// Still photos.
///
/// Deferred start is supported and enabled by default. A request made before the output is
/// initialised is never dropped: it triggers deferred start (if it has not begun, in automatic and
/// manual mode alike) and is delivered once the output is initialised.
/// - With responsive capture (supported, enabled by default) every request is accepted at once and
///   its moment is the newest streamed frame at request time (the session keeps a ring of recent
///   frames); queued requests are delivered in request order.
/// - Without it, `captureReadiness` reports `.notReadyWaitingForInitialization` (show a busy shutter)
///   and the request is served after initialisation with a still taken then (`device.captureStill()`).
///
/// Completions run on this output's own serial delivery queue, in request order.
public final class PhotoOutput: CaptureOutput, @unchecked Sendable {
  // @unchecked Sendable: state is behind the base class's `base` mutex and this class's own mutexes.

  private struct Request {
    var settings: PhotoSettings
    var requestedAt: UInt64
    var moment: VideoFrame?
    var completion: @Sendable (Result<CapturedPhoto, CaptureError>) -> Void
  }

  private struct State {
    var isResponsiveCaptureEnabled = true
    /// Set under this lock together with draining `pending`, so no request can slip between them.
    var isReady = false
    var pending: [Request] = []
    var preparedSettings: [PhotoSettings] = []
    var preparedBuffers: [[UInt8]] = []
    var delivered = 0
  }

  private let photo = PThreadMutex(State())
  private let deliveryQueue = DispatchQueue(label: "firstframe.capture.photo-delivery", qos: .userInitiated)

  /// Creates a photo output (deferred start enabled, responsive capture enabled).
  public init() {
    super.init(kind: .photo, isDeferredStartSupported: true, isDeferredStartEnabledByDefault: true)
  }

  /// Whether responsive capture can be enabled. Always true: the session keeps a ring of recent frames.
  public var isResponsiveCaptureSupported: Bool { true }

  /// Whether requests are accepted, and their moment captured, before the output is initialised.
  public var isResponsiveCaptureEnabled: Bool { photo.withLock { $0.isResponsiveCaptureEnabled } }

  /// Enables or disables responsive capture. Throws `responsiveCaptureUnsupported` when enabling it
  /// where `isResponsiveCaptureSupported` is false.
  public func setResponsiveCaptureEnabled(_ enabled: Bool) throws(CaptureError) {
    if enabled && !isResponsiveCaptureSupported {
      throw CaptureError(
        .responsiveCaptureUnsupported,
        "responsive capture is not supported by this photo output; show a busy shutter instead")
    }
    photo.withLock { $0.isResponsiveCaptureEnabled = enabled }
  }

  /// Photos delivered successfully so far.
  public var deliveredPhotos: Int { photo.withLock { $0.delivered } }

  /// Buffers currently pre-allocated by `setPreparedPhotoSettings(_:)`.
  public var preparedBufferCount: Int { photo.withLock { $0.preparedBuffers.count } }

  /// Whether a request made now is taken at once.
  public var captureReadiness: PhotoCaptureReadiness {
    guard let session, session.isRunning else { return .sessionNotRunning }
    return photo.withLock { state in
      state.isReady || state.isResponsiveCaptureEnabled ? .ready : .notReadyWaitingForInitialization
    }
  }

  /// Pre-allocates one working buffer per settings value, sized for the primary input's active
  /// format, so the first captures do not allocate. The allocation (real memory, every page written)
  /// happens on the session queue; on an output not yet added to a session it happens when the
  /// session adopts the output.
  public func setPreparedPhotoSettings(_ settings: [PhotoSettings]) {
    photo.withLock { $0.preparedSettings = settings }
    session?.enqueue { [self] in allocatePreparedBuffers() }
  }

  /// Takes a photo. `completion` runs once, on the delivery queue, with the photo or an error that
  /// says why (for example `sessionNotRunning`). Never blocks the caller.
  public func capturePhoto(
    with settings: PhotoSettings,
    completion: @escaping @Sendable (Result<CapturedPhoto, CaptureError>) -> Void
  ) {
    let requestedAt = MonotonicClock.now()
    guard let session else {
      fail(
        completion, CaptureError(.outputNotAttached, "add the photo output to a session before taking photos")
      )
      return
    }
    // A tap on the first frame may come before startRunning() has returned: the stream is already
    // delivering, so the request is taken (it waits on the session queue behind the start).
    guard session.isStreamingOrStarting else {
      fail(
        completion,
        CaptureError(.sessionNotRunning, "the capture session is not running; start it before taking a photo")
      )
      return
    }
    if let error = initializationError, session.isDeferredStartComplete {
      fail(completion, error)
      return
    }
    let responsive = isResponsiveCaptureEnabled
    let moment = responsive ? session.newestFrame() : nil
    let request = Request(
      settings: settings, requestedAt: requestedAt, moment: moment, completion: completion)
    let isReady = photo.withLock { state -> Bool in
      if !state.isReady { state.pending.append(request) }
      return state.isReady
    }
    if isReady {
      session.enqueue { [self] in process(request) }
    } else {
      session.requestDeferredStartForPendingCapture()
    }
  }

  override func attach(to session: CaptureSession, signposter: Signposter) {
    super.attach(to: session, signposter: signposter)
    session.enqueue { [self] in allocatePreparedBuffers() }
  }

  override func didInitialize() {
    let pending = photo.withLock { state -> [Request] in
      state.isReady = true
      defer { state.pending.removeAll() }
      return state.pending
    }
    // Served after the current session-queue work (deferred start) finishes, in request order;
    // requests made from now on are queued behind these.
    guard !pending.isEmpty else { return }
    session?.enqueue { [self] in
      for request in pending { process(request) }
    }
  }

  override func initializationDidFail(_ error: CaptureError) {
    let pending = photo.withLock { state -> [Request] in
      defer { state.pending.removeAll() }
      return state.pending
    }
    for request in pending { fail(request.completion, error) }
  }

  override func sessionDidStopRunning() {
    let pending = photo.withLock { state -> [Request] in
      defer { state.pending.removeAll() }
      return state.pending
    }
    for request in pending {
      fail(
        request.completion,
        CaptureError(
          .sessionStopped,
          "the session stopped before the photo output finished initialising; take the photo again"))
    }
  }

  // MARK: - Session queue work

  /// Serves one request. Runs on the session queue.
  private func process(_ request: Request) {
    var frame = request.moment
    var responsive = frame != nil
    if frame == nil {
      guard let device = session?.primaryDevice else {
        fail(
          request.completion, CaptureError(.sessionStopped, "the session has no camera; take the photo again")
        )
        return
      }
      do {
        frame = try device.captureStill()
        responsive = false
      } catch {
        fail(
          request.completion,
          CaptureError(.stillCaptureFailed, "the camera could not take a still; try again", underlying: error)
        )
        return
      }
    }
    guard let frame else { return }
    let count = frame.width * frame.height
    var buffer = photo.withLock { state -> [UInt8]? in
      guard let index = state.preparedBuffers.firstIndex(where: { $0.count == count }) else { return nil }
      return state.preparedBuffers.remove(at: index)
    }
    let wasPrepared = buffer != nil
    var pixels: [UInt8]
    if buffer != nil {
      pixels = buffer!
      buffer = nil  // leave `pixels` the only reference, so writing into it does not copy
    } else {
      pixels = [UInt8](repeating: 0, count: count)
    }
    pixels.withUnsafeMutableBufferPointer { dst in
      frame.pixels.withUnsafeBufferPointer { src in
        for row in 0..<frame.height {
          let from = row * frame.bytesPerRow
          let to = row * frame.width
          for x in 0..<frame.width { dst[to + x] = src[from + x] }
        }
      }
    }
    var metadata = request.settings.metadata
    metadata["sequence"] = String(frame.sequence)
    metadata["source"] = responsive ? "ring" : "still"
    metadata["prepared"] = String(wasPrepared)
    let settingsID = request.settings.uniqueID
    let completion = request.completion
    let requestedAt = request.requestedAt
    let captureTime = frame.captureTime
    let (width, height) = (frame.width, frame.height)
    let finished = pixels
    let finalMetadata = metadata
    let wasResponsive = responsive
    deliveryQueue.async { [self] in
      let photo = CapturedPhoto(
        settingsID: settingsID, width: width, height: height, pixels: finished, captureTime: captureTime,
        requestedAt: requestedAt, deliveredAt: MonotonicClock.now(), metadata: finalMetadata,
        wasResponsiveCapture: wasResponsive)
      self.photo.withLock { $0.delivered += 1 }
      completion(.success(photo))
    }
    if wasPrepared { allocatePreparedBuffers() }
  }

  /// Tops the pool up to one buffer per prepared settings value. Runs on the session queue.
  private func allocatePreparedBuffers() {
    guard let format = session?.primaryFormat else { return }
    let count = format.width * format.height
    let missing = photo.withLock { state -> Int in
      state.preparedBuffers.removeAll { $0.count != count }
      return max(0, state.preparedSettings.count - state.preparedBuffers.count)
    }
    guard missing > 0, count > 0 else { return }
    var fresh: [[UInt8]] = []
    for _ in 0..<missing {
      var buffer = [UInt8](repeating: 0, count: count)
      // Write every page so the memory is really committed, not just reserved.
      var offset = 0
      while offset < count {
        buffer[offset] = 0x80
        offset += 4096
      }
      fresh.append(buffer)
    }
    photo.withLock { $0.preparedBuffers.append(contentsOf: fresh) }
  }

  private func fail(
    _ completion: @escaping @Sendable (Result<CapturedPhoto, CaptureError>) -> Void, _ error: CaptureError
  ) {
    deliveryQueue.async { completion(.failure(error)) }
  }
}
