import CaptureKit
import CV4L2Shims
import Foundation
import PhaseTrace
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The dedicated stream thread: poll → `VIDIOC_DQBUF` → copy the luma → `VIDIOC_QBUF` → deliver.
struct StreamLoop: Sendable {
  /// How long one poll waits before the stop flag is checked again, in milliseconds.
  static let pollTimeoutMilliseconds: Int32 = 50

  var handle: V4L2Handle
  var pool: BufferPool
  var format: ActiveFormat
  var signposter: Signposter
  /// Called with every frame before `deliver` (keeps the newest frame for stills).
  var record: @Sendable (VideoFrame) -> Void
  var deliver: @Sendable (VideoFrame) -> Void

  /// Starts the thread.
  func start(control: StreamControl) {
    let thread = Thread { self.run(control: control) }
    thread.name = "v4l2-stream"
    thread.qualityOfService = .userInteractive
    thread.start()
  }

  /// Dequeues frames until stopped or the device fails.
  func run(control: StreamControl) {
    control.thread.store(UInt(pthread_self()), ordering: .releasing)
    defer { control.finished.signal() }
    var sequence: UInt64 = 0
    while !control.stopRequested.load(ordering: .acquiring) {
      do throws(V4L2Error) {
        guard let frame = try nextFrame(sequence: sequence) else { continue }
        if sequence == 0 {
          signposter.event(
            .deviceFirstBuffer,
            fields: [
              "device": .string(handle.path), "width": .int(Int64(frame.width)),
              "height": .int(Int64(frame.height)),
            ])
        }
        sequence += 1
        record(frame)
        if control.stopRequested.load(ordering: .acquiring) { break }
        deliver(frame)
      } catch {
        if !control.stopRequested.load(ordering: .acquiring) {
          control.failure.withLock { $0 = error }
        }
        return
      }
    }
  }

  /// Waits for one buffer and turns it into a frame; `nil` when none was ready yet.
  func nextFrame(sequence: UInt64) throws(V4L2Error) -> VideoFrame? {
    guard try handle.poll(timeoutMilliseconds: Self.pollTimeoutMilliseconds) else { return nil }
    var buffer = v4l2_buffer()
    buffer.type = V4L2Handle.captureType
    buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
    do {
      try handle.ioctl(.dequeueBuffer, &buffer, streaming: true)
    } catch  where error.errno == EAGAIN {
      return nil
    }
    let index = Int(buffer.index)
    guard pool.buffers.indices.contains(index) else {
      throw V4L2Error(
        code: .systemCallFailed, message: "the driver returned buffer \(index), which was never mapped",
        operation: V4L2Request.dequeueBuffer.rawValue, devicePath: handle.path)
    }
    let luma = format.layout.extract(
      from: pool.buffers[index].bytes(count: Int(buffer.bytesused)), width: format.width,
      height: format.height,
      bytesPerLine: format.bytesPerLine)
    let captured = Self.captureTime(of: buffer)
    try BufferPool.queue(index: index, on: handle, streaming: true)
    return VideoFrame(
      width: format.width, height: format.height, pixels: luma, sequence: sequence, captureTime: captured)
  }

  /// The driver's timestamp when it is `CLOCK_MONOTONIC` (as V4L2 stamps by default), else now; ns.
  static func captureTime(of buffer: v4l2_buffer) -> UInt64 {
    let kind = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK)
    let sec = Int64(buffer.timestamp.tv_sec)
    let usec = Int64(buffer.timestamp.tv_usec)
    if kind == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC), sec > 0 || usec > 0 {
      return UInt64(sec) * 1_000_000_000 + UInt64(usec) * 1000
    }
    return MonotonicClock.now()
  }
}
