import CaptureKit
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// The dedicated stream thread: `VIDIOC_STREAMON`, then poll → `VIDIOC_DQBUF` → copy the luma →
/// `VIDIOC_QBUF` → deliver.
struct StreamLoop: Sendable {
  /// How long one poll waits before the stop flag is checked again, in milliseconds.
  static let pollTimeoutMilliseconds: Int32 = 50
  /// The stream thread's `SCHED_FIFO` priority, as the synthetic camera's frame thread's: a
  /// buffer the driver has filled is taken at once, not after whatever the app's other threads
  /// are drawing (below bench's probe and feeder).
  static let realtimePriority: Int32 = 5

  var handle: V4L2Handle
  var pool: BufferPool
  var format: ActiveFormat
  var signposter: Signposter
  /// Called with every frame before `deliver` (keeps the newest frame for stills).
  var record: @Sendable (VideoFrame) -> Void
  var deliver: @Sendable (VideoFrame) -> Void

  /// Starts the thread; it switches the stream on (`device.stream_on`), polls the device at
  /// once, and signals `control.streamStarted` when that first poll has returned (or stream-on
  /// failed).
  /// - Throws: `V4L2Error` (`system_call_failed`, `pthread_create`) when no thread can be started.
  func start(control: StreamControl) throws(V4L2Error) {
    do {
      try SystemThread.start(name: "v4l2-stream") { self.run(control: control) }
    } catch {
      throw V4L2Error(
        code: .systemCallFailed, message: "cannot start the stream thread", errno: error,
        operation: "pthread_create", devicePath: handle.path)
    }
  }

  /// Switches the stream on, then dequeues frames until stopped or the device fails.
  func run(control: StreamControl) {
    control.thread.store(UInt(pthread_self()), ordering: .releasing)
    defer { control.finished.signal() }
    // startStream returns once the first poll for a buffer has returned (the first buffer
    // dequeued, or one poll timeout without it), or when stream-on failed or the thread left:
    // its caller's work after stream-on (the session's bookkeeping) then does not compete with
    // the driver's capture thread before the first buffer. Under emulation on 2 CPUs it did:
    // camera-app's first buffer took 2.0× the C floor's in one bench, and 1.0× once the caller
    // waited.
    var reported = false
    defer { if !reported { control.streamStarted.signal() } }
    // It only blocks in poll(2) and DQBUF, so real-time priority cannot starve the machine.
    control.realtime.store(
      SystemThread.requestRealtime(priority: Self.realtimePriority) ? 1 : 0, ordering: .releasing)
    do throws(V4L2Error) {
      try streamOn()
    } catch {
      control.streamOnFailure.withLock { $0 = error }
      return
    }
    var sequence: UInt64 = 0
    while !control.stopRequested.load(ordering: .acquiring) {
      do throws(V4L2Error) {
        let next = try nextFrame(sequence: sequence)
        if !reported {
          reported = true
          control.streamStarted.signal()
        }
        guard let frame = next else { continue }
        sequence += 1
        record(frame)
        if control.stopRequested.load(ordering: .acquiring) { break }
        control.afterStop.deliver(frame, deliver)
      } catch {
        if !control.stopRequested.load(ordering: .acquiring) {
          control.failure.withLock { $0 = error }
        }
        return
      }
    }
  }

  /// `VIDIOC_STREAMON`: `device.stream_on` spans the call alone, stamped as the preload library
  /// stamps any app's calls: the clock read just before and just after it, both lines written
  /// after it, so that writing the trace is not part of the span (the buffers were queued before).
  func streamOn() throws(V4L2Error) {
    var type = Int32(V4L2Handle.captureType)
    let fields: [String: PhaseFieldValue] = ["device": .string(handle.path)]
    let name = EventName.deviceStreamOn.rawValue
    let begin = MonotonicClock.now()
    defer {
      let end = MonotonicClock.now()
      signposter.emit(name, .begin, fields: fields, at: begin)
      signposter.emit(name, .end, fields: fields, at: end)
    }
    try handle.ioctl(.streamOn, &type)
  }

  /// Waits for one buffer and turns it into a frame; `nil` when none was ready yet. The first
  /// (`sequence` 0) emits `device.first_buffer` as soon as `VIDIOC_DQBUF` returns it, before the
  /// luma is copied out: the first successful DQBUF, as the preload library marks it in any app.
  func nextFrame(sequence: UInt64) throws(V4L2Error) -> VideoFrame? {
    guard let filled = try pool.dequeue(on: handle, timeoutMilliseconds: Self.pollTimeoutMilliseconds) else {
      return nil
    }
    if sequence == 0 {
      signposter.event(
        .deviceFirstBuffer,
        fields: [
          "device": .string(handle.path), "width": .int(Int64(format.width)),
          "height": .int(Int64(format.height)),
        ])
    }
    let luma = format.layout.extract(
      from: filled.bytes, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine)
    try BufferPool.queue(index: filled.index, on: handle, streaming: true)
    return VideoFrame(
      width: format.width, height: format.height, pixels: luma, sequence: sequence,
      captureTime: filled.captureTime)
  }
}
