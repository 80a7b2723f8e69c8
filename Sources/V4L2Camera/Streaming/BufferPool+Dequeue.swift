import CV4L2Shims
import SystemCalls

extension BufferPool {
  /// The one dequeue step, shared by the stream thread and the still capture: waits up to
  /// `timeoutMilliseconds` for a filled buffer (`poll`), then takes it (`VIDIOC_DQBUF`).
  /// Returns `nil` when none was ready (the wait timed out, or DQBUF said `EAGAIN`). The caller
  /// reads the bytes, then gives the buffer back with ``queue(index:on:streaming:)`` (or
  /// `VIDIOC_STREAMOFF` returns every buffer).
  /// - Throws: the poll's or DQBUF's error (`device_gone` when the device vanished), or
  ///   `system_call_failed` when the driver returns a buffer that was never mapped.
  func dequeue(on handle: V4L2Handle, timeoutMilliseconds: Int32) throws(V4L2Error) -> DequeuedBuffer? {
    guard try handle.poll(timeoutMilliseconds: timeoutMilliseconds) else { return nil }
    var buffer = v4l2_buffer()
    buffer.type = V4L2Handle.captureType
    buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
    do {
      try handle.ioctl(.dequeueBuffer, &buffer, streaming: true)
    } catch  where error.errno == .wouldBlock {
      return nil
    }
    let index = Int(buffer.index)
    guard buffers.indices.contains(index) else {
      throw V4L2Error(
        code: .systemCallFailed, message: "the driver returned buffer \(index), which was never mapped",
        operation: V4L2Request.dequeueBuffer.rawValue, devicePath: handle.path)
    }
    return DequeuedBuffer(
      index: index, bytes: buffers[index].bytes(count: Int(buffer.bytesused)),
      captureTime: Self.captureTime(of: buffer))
  }

  /// The driver's timestamp when it is `CLOCK_MONOTONIC` (as V4L2 stamps by default), else now; ns.
  /// A timestamp no clock can show (negative, microseconds beyond a second, or past `UInt64`
  /// nanoseconds) is not believed either: now.
  static func captureTime(of buffer: v4l2_buffer) -> UInt64 {
    let kind = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK)
    let sec = Int64(buffer.timestamp.tv_sec)
    let usec = Int64(buffer.timestamp.tv_usec)
    let plausible = (0..<Int64(UInt64.max / 1_000_000_000)).contains(sec) && (0..<1_000_000).contains(usec)
    if kind == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC), plausible, sec > 0 || usec > 0 {
      return UInt64(sec) * 1_000_000_000 + UInt64(usec) * 1000
    }
    return MonotonicClock.now()
  }
}
