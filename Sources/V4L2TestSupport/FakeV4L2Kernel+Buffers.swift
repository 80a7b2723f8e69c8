import CV4L2Shims
import SystemCalls
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

// The fake camera's buffers and streaming: `VIDIOC_REQBUFS`, `QUERYBUF`, `QBUF`, `DQBUF` (a
// capture buffer filled with the frame's luma; an output buffer handed back unchanged) and
// `STREAMON`/`STREAMOFF`.
extension FakeV4L2Kernel {
  /// `VIDIOC_REQBUFS`: frees the old buffers and allocates up to 32 of `sizeImage` bytes
  /// (`EBUSY` while streaming, `ENOMEM` beyond ``maxBufferBytes``).
  func answerRequestBuffers(_ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32 {
    let r = argument.assumingMemoryBound(to: v4l2_requestbuffers.self)
    guard !s.streaming else { return -EBUSY }
    for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b.address)?.deallocate() }
    s.buffers = []
    s.queued = []
    guard s.sizeImage <= Self.maxBufferBytes else { return -ENOMEM }
    let length = max(s.sizeImage, 1)
    s.buffers = (0..<min(Int(r.pointee.count), 32)).map { _ in
      (UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)), length)
    }
    r.pointee.count = UInt32(s.buffers.count)
    return 0
  }

  /// `VIDIOC_QUERYBUF`: a buffer's length and its `mmap` offset (index × 64 KiB).
  func answerQueryBuffer(_ argument: UnsafeMutableRawPointer, _ s: State) -> Int32 {
    let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
    guard Int(b.pointee.index) < s.buffers.count else { return -EINVAL }
    b.pointee.length = UInt32(s.buffers[Int(b.pointee.index)].length)
    b.pointee.m.offset = b.pointee.index * 0x10000
    return 0
  }

  /// `VIDIOC_QBUF`: queues a buffer (`EINVAL` for an unknown or already queued one); an output
  /// buffer's bytes are kept in `outputFrames`.
  func answerQueueBuffer(_ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32 {
    let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
    guard Int(b.pointee.index) < s.buffers.count, !s.queued.contains(Int(b.pointee.index)) else {
      return -EINVAL
    }
    s.queued.append(Int(b.pointee.index))
    if b.pointee.type == Self.outputType, s.outputFrames.count < Self.maxOutputFrames {
      let buffer = s.buffers[Int(b.pointee.index)]
      let used = b.pointee.bytesused > 0 ? min(Int(b.pointee.bytesused), buffer.length) : buffer.length
      let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: buffer.address), count: used)
      s.outputFrames.append((Int(b.pointee.index), Array(bytes)))
    }
    return 0
  }

  /// `VIDIOC_DQBUF`: the oldest queued buffer (`EAGAIN` when none or not streaming; the
  /// configured `dequeueFailure`); a capture buffer is filled as the next frame and stamped.
  func answerDequeueBuffer(_ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32 {
    if let failure = s.config.dequeueFailure, s.frames >= failure.afterFrames { return -failure.errno }
    guard s.streaming, !s.queued.isEmpty else { return -EAGAIN }
    let index = s.queued.removeFirst()
    let buffer = s.buffers[index]
    if argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.type == Self.outputType {
      argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index = UInt32(index)
      return 0
    }
    fill(
      UnsafeMutableRawBufferPointer(
        start: UnsafeMutableRawPointer(bitPattern: buffer.address), count: buffer.length), s)
    let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
    b.pointee.index = UInt32(index)
    b.pointee.bytesused = UInt32(s.sizeImage)
    b.pointee.sequence = UInt32(s.frames)
    b.pointee.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
    let now = MonotonicClock.now()
    b.pointee.timestamp.tv_sec = Int(now / 1_000_000_000)
    b.pointee.timestamp.tv_usec = Int(now % 1_000_000_000 / 1000)
    s.frames += 1
    return 0
  }

  /// `VIDIOC_STREAMON` (`EINVAL` without buffers) and `VIDIOC_STREAMOFF` (dequeues everything).
  func answerStreaming(_ request: V4L2Request, _ s: inout State) -> Int32 {
    if request == .streamOn {
      guard !s.buffers.isEmpty else { return -EINVAL }
      s.streaming = true
      return 0
    }
    s.streaming = false
    s.queued = []
    return 0
  }

  /// Luma `luma(ofFrame:)` everywhere a Y sample sits, 128 for chroma.
  private func fill(_ bytes: UnsafeMutableRawBufferPointer, _ s: State) {
    let y = Self.luma(ofFrame: s.frames)
    switch s.fourCC {
    case "YUYV":
      for i in 0..<bytes.count { bytes[i] = i % 2 == 0 ? y : 128 }
    case "UYVY":
      for i in 0..<bytes.count { bytes[i] = i % 2 == 1 ? y : 128 }
    default:
      let plane = s.bytesPerLine * s.height
      for i in 0..<bytes.count { bytes[i] = i < plane ? y : 128 }
    }
  }
}
