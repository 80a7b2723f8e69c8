import CV4L2Shims
import CaptureKit
import PhaseTrace

extension V4L2Camera {
  /// Starts streaming: maps the buffer pool if no output did yet (`device.buffers`), starts the
  /// stream thread (it waits), queues every buffer (`VIDIOC_QBUF`), `VIDIOC_STREAMON`
  /// (`device.stream_on`), then lets the thread poll, dequeue (`VIDIOC_DQBUF`), copy the luma,
  /// requeue and call `deliver`.
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
    // The stream thread starts first and waits for stream-on: creating a thread (milliseconds
    // under load) is then not between stream-on and the first DQBUF.
    let control = StreamControl()
    lastFailure.withLock { $0 = nil }
    let loop = StreamLoop(
      handle: handle, pool: pool, format: active, signposter: signposter,
      record: { [weak self] frame in self?.latestFrame.withLock { $0 = frame } }, deliver: deliver)
    try loop.start(control: control)
    // device.stream_on is the VIDIOC_STREAMON call alone, as the preload library marks it in any
    // app: queueing the buffers before it is not part of it.
    do throws(V4L2Error) {
      try pool.queueAll(on: handle)
      var type = Int32(V4L2Handle.captureType)
      signposter.begin(.deviceStreamOn, fields: ["device": .string(path)])
      defer { signposter.end(.deviceStreamOn, fields: ["device": .string(path)]) }
      try handle.ioctl(.streamOn, &type)
    } catch {
      control.stopRequested.store(true, ordering: .releasing)
      control.streamStarted.signal()
      control.finished.wait()
      var type = Int32(V4L2Handle.captureType)
      _ = handle.ioctlStatus(.streamOff, &type)
      throw error
    }
    control.streamStarted.signal()
    s.stream = (control, deliver)
  }

  /// Stops streaming: ends the stream thread (within one poll timeout, 50 ms), then
  /// `VIDIOC_STREAMOFF`. The buffers stay mapped for the next `startStream`. No `deliver` call
  /// runs after it returns (unless it is called from `deliver` itself).
  public func stopStream() {
    guard let control = state.withLock({ $0.stream?.control }) else { return }
    control.stopRequested.store(true, ordering: .releasing)
    if !control.isCurrentThread { control.finished.wait() }
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
