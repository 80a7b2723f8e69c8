import CaptureKit
import LaunchContract
import PhaseTrace
import SystemCalls

extension V4L2Camera {
  /// Does the device-side set-up of an output — the work a session defers when it can:
  /// - `preview`, `video-data`, `analysis`: the streaming buffer pool (`VIDIOC_REQBUFS`,
  ///   `VIDIOC_QUERYBUF`, `v4l2_mmap`; `device.buffers`) — what the first frame needs;
  /// - `photo`: the still path: the largest size of the streaming pixel format and a
  ///   preallocated full-resolution luma destination (see `captureStill()`);
  /// - `movie`: the recording ring, ``movieRingFrames`` luma frames at the active size,
  ///   allocated and touched (the ring a movie writer drains).
  /// Negotiates the size nearest 640×480 at 30 fps if no format was set.
  public func initializeOutput(_ kind: CaptureOutputKind) throws(V4L2Error) {
    try state.withLock { (s) throws(V4L2Error) in
      let handle = try requireHandle(s)
      switch kind {
      case .preview, .videoData, .analysis:
        _ = try ensureActiveFormat(&s, handle: handle)
        if s.pool == nil { try allocatePool(&s, handle: handle) }
      case .photo:
        if s.still == nil {
          let active = try ensureActiveFormat(&s, handle: handle)
          let luma = try lumaFormat(&s, handle: handle, preferring: active.fourCC)
          let largest = luma?.sizes.max { $0.width * $0.height < $1.width * $1.height }
          let width = largest?.width ?? active.width
          let height = largest?.height ?? active.height
          s.still = StillSetup(
            width: width, height: height, fourCC: luma?.fourCC ?? active.fourCC,
            luma: [UInt8](repeating: 0, count: width * height))
        }
      case .movie:
        s.movieRing = Self.makeRing(for: try ensureActiveFormat(&s, handle: handle))
      }
      s.outputs.insert(kind)
    }
  }

  /// The size of a still `captureStill()` returns (after `initializeOutput(.photo)`), or `nil`.
  public var stillSize: (width: Int, height: Int)? {
    state.withLock { s in s.still.map { ($0.width, $0.height) } }
  }

  /// A full-resolution still (the largest size of the streaming pixel format), as luma.
  ///
  /// How: V4L2 has one buffer queue per node, so a still at a size other than the stream's
  /// needs a format switch — stop the stream thread, `VIDIOC_STREAMOFF`, free the pool,
  /// `VIDIOC_S_FMT` to the still size, map two buffers, `VIDIOC_STREAMON`, take one frame,
  /// then restore the streaming format and pool and restart streaming with the same `deliver`.
  /// Cost: preview pauses for two format switches plus one frame interval at the still size
  /// (on vivid 3840×2160 runs at 2 fps, so ≥ 0.5 s). When the stream already runs at the still
  /// size the newest streamed frame is returned instead (no pause). The alternative — always
  /// streaming at full resolution and scaling preview down — costs bandwidth on every frame,
  /// which is exactly what a launch-latency benchmark should not hide.
  /// - Throws: `invalid_state` before `initializeOutput(.photo)`; `timed_out` when no frame arrives.
  public func captureStill() throws(V4L2Error) -> VideoFrame {
    let (still, active, deliver) = state.withLock { s in (s.still, s.active, s.stream?.deliver) }
    guard let still else {
      throw .invalidState(path, "the photo output is not set up; call initializeOutput(.photo) first")
    }
    if deliver != nil, let active, active.width == still.width, active.height == still.height {
      return try newestStreamedFrame()
    }
    if deliver != nil { stopStream() }
    let result: Result<VideoFrame, V4L2Error> = state.withLock { s in
      do throws(V4L2Error) {
        return .success(try captureStillBySwitching(&s, still: still))
      } catch {
        return .failure(error)
      }
    }
    if let deliver {
      try startStream(deliver)
    }
    return try result.get()
  }

  /// The next streamed frame (waits up to `stillFrameTimeoutNanoseconds`, 2 s unless said), for
  /// stills at the streaming size.
  func newestStreamedFrame() throws(V4L2Error) -> VideoFrame {
    let before = latestFrame.withLock { $0?.sequence }
    var newer: VideoFrame?
    _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ stillFrameTimeoutNanoseconds, slice: 5_000_000) {
      newer = latestFrame.withLock { $0.flatMap { $0.sequence != before ? $0 : nil } }
      return newer != nil
    }
    if let newer { return newer }
    let timeout = stillFrameTimeoutNanoseconds
    let seconds = timeout % 1_000_000_000 == 0 ? "\(timeout / 1_000_000_000)" : "\(Double(timeout) / 1e9)"
    throw V4L2Error(
      code: .timedOut, message: "no frame arrived within \(seconds) s for the still", devicePath: path)
  }

  /// The format switch described in `captureStill()`. Restores the streaming format and pool
  /// even when the capture fails.
  func captureStillBySwitching(_ s: inout State, still: StillSetup) throws(V4L2Error) -> VideoFrame {
    let handle = try requireHandle(s)
    let previous = s.active
    let hadPool = s.pool != nil
    s.pool?.release(on: handle)
    s.pool = nil
    var captureError: V4L2Error?
    var frame: VideoFrame?
    do throws(V4L2Error) {
      let format = try negotiate(
        &s, handle: handle,
        CaptureFormat(width: still.width, height: still.height, maxFrameRate: 0, fourCC: still.fourCC),
        frameRate: 0)
      let pool = try BufferPool.allocate(on: handle, count: 2)
      defer { pool.release(on: handle) }
      frame = try captureOneFrame(handle: handle, pool: pool, format: format, into: &s.still!.luma)
    } catch {
      captureError = error
    }
    s.active = previous
    if let previous {
      s.active = try negotiate(
        &s, handle: handle,
        CaptureFormat(
          width: previous.width, height: previous.height, maxFrameRate: 0, fourCC: previous.fourCC),
        frameRate: s.requestedRate ?? 0)
    }
    if hadPool { try allocatePool(&s, handle: handle) }
    if let captureError { throw captureError }
    return frame!
  }

  /// STREAMON, one buffer, STREAMOFF.
  func captureOneFrame(handle: V4L2Handle, pool: BufferPool, format: ActiveFormat, into luma: inout [UInt8])
    throws(V4L2Error) -> VideoFrame
  {
    try pool.queueAll(on: handle)
    var type = Int32(V4L2Handle.captureType)
    try handle.ioctl(.streamOn, &type)
    defer {
      var off = Int32(V4L2Handle.captureType)
      _ = handle.ioctlStatus(.streamOff, &off)
    }
    let deadline = MonotonicClock.now() + 5_000_000_000
    while MonotonicClock.now() < deadline {
      guard let filled = try pool.dequeue(on: handle, timeoutMilliseconds: 100) else { continue }
      if luma.count < format.width * format.height {
        luma = [UInt8](repeating: 0, count: format.width * format.height)
      }
      format.layout.extract(
        from: filled.bytes, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine,
        into: &luma)
      return VideoFrame(
        width: format.width, height: format.height,
        pixels: luma.count == format.width * format.height
          ? luma : Array(luma.prefix(format.width * format.height)),
        sequence: 0, captureTime: filled.captureTime)
    }
    throw V4L2Error(
      code: .timedOut,
      message: "no frame arrived within 5 s at \(format.width)x\(format.height) for the still",
      operation: V4L2Request.dequeueBuffer.rawValue, devicePath: path)
  }

  /// A movie ring for `format`: ``movieRingFrames`` zeroed luma frames.
  static func makeRing(for format: ActiveFormat) -> [[UInt8]] {
    (0..<movieRingFrames).map { _ in [UInt8](repeating: 0, count: format.width * format.height) }
  }
}
