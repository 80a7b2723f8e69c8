import CaptureKit
import Foundation
import PhaseTrace
import SystemCalls
import Testing
import TestSupport
import V4L2TestSupport

@testable import V4L2Camera

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct V4L2StreamingTests {
  @Test("frames stream from the fake mmap'd pool with the right luma, size and order")
  func streamsFrames() throws {
    let fake = FakeV4L2Kernel()
    let trace = InMemoryTrace()
    let camera = try V4L2Camera(
      path: FakeV4L2Kernel.path, signposter: Signposter(sink: trace), kernel: fake.kernel)
    try camera.open()
    try camera.setActiveFormat(CaptureFormat(width: 640, height: 480, maxFrameRate: 30), frameRate: 30)
    try camera.initializeOutput(.preview)
    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(collector.blockUntilCount(10, timeout: .seconds(10)))
    camera.stopStream()
    let after = collector.count
    let frames = collector.values
    #expect(frames.map(\.sequence) == (0..<UInt64(frames.count)).map { $0 })
    for (n, frame) in frames.enumerated() {
      #expect(frame.width == 640 && frame.height == 480 && frame.bytesPerRow == 640)
      #expect(frame.pixels.count == 640 * 480)
      #expect(frame.pixels.allSatisfy { $0 == FakeV4L2Kernel.luma(ofFrame: n) })
    }
    #expect(zip(frames, frames.dropFirst()).allSatisfy { $0.captureTime <= $1.captureTime })
    #expect(fake.count(.queueBuffer) >= V4L2Camera.streamingBufferCount + frames.count)
    // No delivery after stopStream returned: counted where the stream thread delivers.
    #expect(camera.framesDeliveredAfterStop == 0)
    #expect(collector.count == after)
    #expect(
      trace.timeline.prefix(9) == [
        "device.open:begin", "device.open:end", "device.format:begin", "device.format:end",
        "device.buffers:begin", "device.buffers:end", "device.stream_on:begin", "device.stream_on:end",
        "device.first_buffer",
      ])
    camera.close()
    #expect(fake.count(.requestBuffers) == 2)  // allocate, then free on close
  }

  @Test(
    "device.stream_on spans VIDIOC_STREAMON alone, stamped around the call and written after it, and device.first_buffer marks the first DQBUF, as the preload library marks them in any app"
  )
  func phasesMatchThePreloadLibrary() throws {
    let trace = InMemoryTrace()
    let seen = Collector<String>()
    let callAt = PThreadMutex<UInt64>(0)
    let queuedAt = Collector<UInt64>()
    var config = FakeV4L2Kernel.Config()
    config.tamper = { request, _, result in
      let timeline = trace.timeline
      let streamOn = timeline.contains("device.stream_on:begin")
      switch request {
      case .queueBuffer where !seen.values.contains("DQBUF"):
        queuedAt.append(MonotonicClock.now())
      case .streamOn:
        // Stamped around the call and written after it, as the preload library writes them:
        // no line of the span is written yet, and the call falls between the two stamps.
        if streamOn { seen.append("device.stream_on written before STREAMON returned") }
        callAt.withLock { $0 = MonotonicClock.now() }
      case .dequeueBuffer where result >= 0 && !seen.values.contains("DQBUF"):
        seen.append("DQBUF")
      case .queueBuffer where seen.values.contains("DQBUF") && !seen.values.contains("requeued"):
        seen.append("requeued")
        if !timeline.contains("device.first_buffer") { seen.append("requeued before device.first_buffer") }
      default: break
      }
      return result
    }
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(
      path: FakeV4L2Kernel.path, signposter: Signposter(sink: trace), kernel: fake.kernel)
    try camera.open()
    defer { camera.close() }
    let frames = Collector<VideoFrame>()
    try camera.startStream(frames.append)
    #expect(frames.blockUntilCount(2, timeout: .seconds(10)))
    camera.stopStream()
    #expect(seen.values.filter { $0 != "DQBUF" && $0 != "requeued" } == [], "\(seen.values)")
    #expect(seen.values.contains("requeued"))
    let span = trace.events.filter { $0.name == "device.stream_on" }
    #expect(span.map(\.kind) == [.begin, .end])
    let call = callAt.withLock { $0 }
    #expect(span.count == 2 && span[0].ts <= call && call <= span[1].ts, "STREAMON outside device.stream_on")
    #expect(queuedAt.count >= 1)
    #expect(span.count == 2 && queuedAt.values.allSatisfy { $0 < span[0].ts }, "QBUF inside device.stream_on")
  }

  @Test(
    "VIDIOC_STREAMON and the first VIDIOC_DQBUF are made on one thread, as a minimal capture loop makes them: no thread is woken between them; that thread asks for SCHED_FIFO; startStream returns after stream-on"
  )
  func streamOnAndFirstDequeueOnOneThread() throws {
    let threads = PThreadMutex<[V4L2Request: UInt]>([:])
    let policy = PThreadMutex<Int32?>(nil)
    var config = FakeV4L2Kernel.Config()
    config.tamper = { request, _, result in
      if request == .streamOn || (request == .dequeueBuffer && result >= 0) {
        threads.withLock { if $0[request] == nil { $0[request] = UInt(pthread_self()) } }
      }
      if request == .streamOn {
        var param = sched_param()
        var current: Int32 = 0
        pthread_getschedparam(pthread_self(), &current, &param)
        policy.withLock { $0 = current }
      }
      return result
    }
    try Self.streamOneFrame(
      config,
      beforeStart: { camera, _ in #expect(camera.realtimePriorityGranted == nil) },
      started: { camera, fake in
        #expect(fake.count(.streamOn) == 1, "startStream returned before stream-on")
        // The stream thread asks for SCHED_FIFO before stream-on, and the camera says whether it got it.
        let granted = try #require(camera.realtimePriorityGranted as Bool?)
        #expect((policy.withLock { $0 } == SCHED_FIFO) == granted)
      })
    let seen = threads.withLock { $0 }
    let streamOn = try #require(seen[.streamOn])
    #expect(seen[.dequeueBuffer] == streamOn)
    #expect(streamOn != UInt(pthread_self()), "stream-on on the caller's thread")
  }

  @Test(
    "startStream returns only once the first VIDIOC_DQBUF has returned: the caller's work after it does not compete with the driver before the first buffer"
  )
  func startStreamReturnsAfterTheFirstDequeue() throws {
    let order = Collector<String>()
    var config = FakeV4L2Kernel.Config()
    config.tamper = { request, _, result in
      if request == .dequeueBuffer && result >= 0 && !order.values.contains("first DQBUF") {
        // A driver slow to fill the first buffer: 100 ms after the request, which the caller
        // would have long returned within if it did not wait for it.
        usleep(100_000)  // not a timing assertion: a driver slow to fill the first buffer
        order.append("first DQBUF")
      }
      return result
    }
    try Self.streamOneFrame(config, started: { _, _ in order.append("startStream returned") })
    #expect(order.values == ["first DQBUF", "startStream returned"])
  }

  /// Opens a camera on a fake kernel with `config`, starts streaming, waits for one frame and
  /// stops; `beforeStart` runs just before `startStream`, `started` right after it returns.
  static func streamOneFrame(
    _ config: FakeV4L2Kernel.Config,
    beforeStart: (V4L2Camera, FakeV4L2Kernel) throws -> Void = { _, _ in },
    started: (V4L2Camera, FakeV4L2Kernel) throws -> Void
  ) throws {
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    defer { camera.close() }
    let frames = Collector<VideoFrame>()
    try beforeStart(camera, fake)
    try camera.startStream(frames.append)
    try started(camera, fake)
    #expect(frames.blockUntilCount(1, timeout: .seconds(10)))
    camera.stopStream()
  }

  @Test(
    "a failed VIDIOC_STREAMON ends the stream thread started before it, and the next start streams from sequence 0"
  )
  func streamOnFailureEndsTheWaitingThread() throws {
    var config = FakeV4L2Kernel.Config()
    config.failures = [.streamOn: [EIO]]
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    defer { camera.close() }
    let lost = Collector<VideoFrame>()
    #expect(throws: V4L2Error.self) { try camera.startStream(lost.append) }
    let frames = Collector<VideoFrame>()
    try camera.startStream(frames.append)
    #expect(frames.blockUntilCount(3, timeout: .seconds(10)))
    camera.stopStream()
    #expect(frames.values.first?.sequence == 0)
    #expect(lost.count == 0, "the failed start's thread delivered nothing")
  }

  @Test("a stream restarts after a stop, from sequence 0, on the same buffers")
  func restarts() throws {
    let fake = FakeV4L2Kernel()
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    let first = Collector<VideoFrame>()
    try camera.startStream(first.append)
    #expect(first.blockUntilCount(3, timeout: .seconds(10)))
    camera.stopStream()
    let second = Collector<VideoFrame>()
    try camera.startStream(second.append)
    #expect(second.blockUntilCount(3, timeout: .seconds(10)))
    camera.stopStream()
    #expect(second.values.first?.sequence == 0)
    #expect(fake.count(.requestBuffers) == 1)
    #expect(fake.count(.streamOn) == 2 && fake.count(.streamOff) == 2)
  }

  @Test("a still switches to the largest size and streaming resumes at the preview size")
  func stillBySwitchingFormat() throws {
    let fake = FakeV4L2Kernel()
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    try camera.setActiveFormat(CaptureFormat(width: 640, height: 480, maxFrameRate: 30), frameRate: 30)
    try camera.initializeOutput(.preview)
    try camera.initializeOutput(.photo)
    #expect(camera.stillSize?.width == 1280)
    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(collector.blockUntilCount(2, timeout: .seconds(10)))
    let still = try camera.captureStill()
    #expect(still.width == 1280 && still.height == 720)
    #expect(still.pixels.count == 1280 * 720)
    let before = collector.count
    #expect(collector.blockUntilCount(before + 3, timeout: .seconds(10)))
    camera.stopStream()
    #expect(collector.values.last?.width == 640)
    #expect(camera.activeFormatDescription == "640x480@30 YUYV")
    #expect(fake.framesPerSecond == 30)
  }

  @Test("a still at the streaming size is the newest streamed frame, without a format switch")
  func stillAtStreamingSize() throws {
    let fake = FakeV4L2Kernel()
    // The product waits 2 s for the next streamed frame; the fake kernel's stream thread, starved
    // under CPU burners or emulation, once took longer. This test is about which frame the still
    // is, not how soon: it waits as long as the suite's safety nets do.
    let camera = try V4L2Camera(
      path: FakeV4L2Kernel.path, kernel: fake.kernel, stillFrameTimeout: TestTime.scaled(.seconds(60)))
    try camera.open()
    try camera.setActiveFormat(CaptureFormat(width: 1280, height: 720, maxFrameRate: 10), frameRate: 10)
    try camera.initializeOutput(.photo)
    try camera.startStream { _ in }
    let formatsBefore = fake.count(.setFormat)
    let still = try camera.captureStill()
    camera.stopStream()
    #expect(still.width == 1280)
    #expect(fake.count(.setFormat) == formatsBefore)
  }

  @Test("controls are listed, read and set")
  func controls() throws {
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel)
    try camera.open()
    let all = try camera.controls()
    #expect(all.map(\.name) == ["Brightness", "Horizontal Movement"])
    let movement = try #require(try camera.control(named: "horizontal movement"))
    #expect(try camera.value(ofControl: movement.id) == 3)
    try camera.setValue(5, ofControl: movement.id)
    #expect(try camera.value(ofControl: movement.id) == 5)
    #expect(throws: V4L2Error.self) { try camera.setValue(9, ofControl: movement.id) }
  }

  @Test("enumeration describes the device with formats, sizes and rates, or why it cannot be opened")
  func enumeration() throws {
    let devices = V4L2Camera.enumerate(kernel: FakeV4L2Kernel().kernel)
    let device = try #require(devices.first)
    #expect(device.card == "Fake Camera" && device.driver == "fake" && device.mayOpen)
    #expect(
      device.formats.first?.description
        == "YUYV: 320x240 (30-60 fps), 640x480 (15-30 fps), 1280x720 (5-10 fps)")
    var config = FakeV4L2Kernel.Config()
    config.openErrno = EACCES
    let denied = V4L2Camera.enumerate(kernel: FakeV4L2Kernel(config).kernel)
    #expect(denied.first?.mayOpen == false)
    #expect(denied.first?.problem?.contains("usermod -aG video") == true)
  }

  @Test("the movie output allocates its ring at the active size")
  func movieRing() throws {
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel)
    try camera.open()
    try camera.initializeOutput(.movie)
    #expect(camera.state.withLock { $0.movieRing.count } == V4L2Camera.movieRingFrames)
    #expect(camera.state.withLock { $0.movieRing.first?.count } == 640 * 480)
  }
}
