import CV4L2Shims
import CaptureKit
import PhaseTrace

extension V4L2Camera {
  /// Starts streaming: maps the buffer pool if no output did yet (`device.buffers`), queues every
  /// buffer (`VIDIOC_QBUF`), then starts the stream thread, which calls `VIDIOC_STREAMON`
  /// (`device.stream_on`) and goes straight on to poll, dequeue (`VIDIOC_DQBUF`), copy the luma,
  /// requeue and call `deliver`. This call throws stream-on's error; it returns once the first
  /// buffer has been dequeued, or one poll timeout (50 ms) passed without one, so that the
  /// caller's work after it does not compete with the driver before the first buffer.
  /// The first dequeued buffer emits `device.first_buffer`. Negotiates the size nearest 640×480
  /// at 30 fps if no format was set.
  public func startStream(_ deliver: @escaping @Sendable (VideoFrame) -> Void) throws(V4L2Error) {
    try state.withLock { (s) throws(V4L2Error) in try startStream(&s, deliver) }
  }

  func startStream(_ s: inout State, _ deliver: @escaping @Sendable (VideoFrame) -> Void) throws(V4L2Error) {
    guard s.stream == nil else { throw .invalidState(path, "already streaming") }
    let handle = try requireHandle(s)
    let active = try ensureActiveFormat(&s, handle: handle)
    if s.pool == nil { try allocatePool(&s, handle: handle) }
    let pool = s.pool!
    try pool.queueAll(on: handle)
    // The stream thread makes the VIDIOC_STREAMON call itself and dequeues right after it, on the
    // same thread, as a minimal capture loop does: no thread has to be created or woken between
    // stream-on and the first DQBUF. This thread only waits for stream-on's outcome, off that path.
    let control = StreamControl(afterStop: deliveries.gate())
    lastFailure.withLock { $0 = nil }
    let loop = StreamLoop(
      handle: handle, pool: pool, format: active, signposter: signposter,
      record: { [weak self] frame in self?.latestFrame.withLock { $0 = frame } }, deliver: deliver)
    do throws(V4L2Error) {
      try loop.start(control: control)
    } catch {
      var type = Int32(V4L2Handle.captureType)
      _ = handle.ioctlStatus(.streamOff, &type)  // dequeues the queued buffers
      throw error
    }
    control.streamStarted.wait()
    if let failure = control.streamOnFailure.withLock({ $0 }) {
      control.finished.wait()
      var type = Int32(V4L2Handle.captureType)
      _ = handle.ioctlStatus(.streamOff, &type)
      throw failure
    }
    s.stream = (control, deliver)
    s.realtimePriorityGranted = control.realtime.load(ordering: .acquiring) == 1
  }

  /// Whether the stream thread got real-time priority (`SCHED_FIFO`) for the current or last
  /// stream; nil before the first stream started.
  public var realtimePriorityGranted: Bool? { state.withLock { $0.realtimePriorityGranted } }

  /// Stops streaming: ends the stream thread (within one poll timeout, 50 ms), then
  /// `VIDIOC_STREAMOFF`. The buffers stay mapped for the next `startStream`. No `deliver` call
  /// runs after it returns (unless it is called from `deliver` itself).
  public func stopStream() {
    guard let control = state.withLock({ $0.stream?.control }) else { return }
    control.stopRequested.store(true, ordering: .releasing)
    let fromDelivery = control.isCurrentThread
    if !fromDelivery { control.finished.wait() }
    defer { control.afterStop.stopReturned(fromDelivery: fromDelivery) }
    state.withLock { s in
      guard let current = s.stream, current.control === control else { return }
      if let handle = s.handle {
        var type = Int32(V4L2Handle.captureType)
        _ = handle.ioctlStatus(.streamOff, &type)
      }
      s.stream = nil
    }
    let failure = control.failure.withLock { $0 }
    lastFailure.withLock { $0 = failure }
  }

  /// Maps the streaming buffer pool (`VIDIOC_REQBUFS`, `VIDIOC_QUERYBUF`, `v4l2_mmap`).
  /// Emits `device.buffers`.
  func allocatePool(_ s: inout State, handle: V4L2Handle, count: Int = V4L2Camera.streamingBufferCount)
    throws(V4L2Error)
  {
    signposter.begin(
      .deviceBuffers, fields: ["device": .string(path), "count": .int(Int64(count))])
    defer {
      signposter.end(
        .deviceBuffers, fields: ["device": .string(path), "count": .int(Int64(count))])
    }
    s.pool = try BufferPool.allocate(on: handle, count: count)
  }
}
