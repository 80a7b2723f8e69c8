import CV4L2Shims
import LightBoard
import ResultsSchema
import SystemCalls
import TestSupport
import Testing
import V4L2Camera
import V4L2TestSupport
@testable import LightBoardFeed

/// The light-board feeder against the fake kernel: what it queues on the output, in which order,
/// in which format. No timing is asserted (the cadence's regularity is a benchmark's business).
@Suite(
  "The light-board feeder writes the board into an output queue", .timeLimit(.minutes(TestTime.minutes(10))))
struct LightBoardFeederTests {
  /// A fake node that captures and outputs, with the capture format an app would have set.
  static func fakeNode(fourCC: String, width: Int = 320, height: Int = 240) -> FakeV4L2Kernel {
    var config = FakeV4L2Kernel.Config()
    config.capabilities =
      UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_VIDEO_OUTPUT) | UInt32(V4L2_CAP_STREAMING)
    config.formats = [FakeV4L2Kernel.Format(fourCC: fourCC, sizes: [(width, height, [30])])]
    let fake = FakeV4L2Kernel(config)
    var format = v4l2_format()
    format.type = UInt32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
    format.fmt.pix.width = UInt32(width)
    format.fmt.pix.height = UInt32(height)
    format.fmt.pix.pixelformat = FourCC.code(fourCC)
    _ = withUnsafeMutableBytes(of: &format) { fake.ioctl(.setFormat, $0.baseAddress!) }
    return fake
  }

  /// The luma of a queued frame (`stride` bytes per pixel, luma at byte `offset` of each).
  static func luma(of bytes: [UInt8], width: Int, height: Int, stride: Int, offset: Int) -> [UInt8] {
    (0..<(width * height)).map { bytes[$0 * stride + offset] }
  }

  /// The board read from a 320×240 luma image.
  static func decode(_ pixels: [UInt8]) -> LightBoardReading {
    pixels.withUnsafeBufferPointer {
      LightBoard.decode(LumaImage(base: $0.baseAddress!, width: 320, height: 240, bytesPerRow: 320))
    }
  }

  static func feed(_ fake: FakeV4L2Kernel, frames: Int) async throws -> LightBoardFeeder.Report {
    let feeder = try LightBoardFeeder(
      outputPath: FakeV4L2Kernel.path, capturePath: FakeV4L2Kernel.path, kernel: fake.kernel, frameRate: 200)
    try feeder.start()
    let enough = await waitUntil(timeout: .seconds(60)) { fake.outputFrames.count >= frames }
    let report = feeder.stop()
    #expect(enough, "the feeder queued \(fake.outputFrames.count) frames, not \(frames)")
    return report
  }

  @Test("YUYV frames carry the board, bar steps in order and render times never going back")
  func yuyvFramesInOrder() async throws {
    let fake = Self.fakeNode(fourCC: "YUYV")
    let before = MonotonicClock.now()
    let report = try await Self.feed(fake, frames: 12)
    let frames = fake.outputFrames
    #expect(report.formats == ["320x240 YUYV"])
    #expect(report.failure == nil)
    #expect(report.framesSent >= frames.count)
    var readings: [(us: UInt64, step: Int)] = []
    for frame in frames {
      #expect(frame.bytes.count == 320 * 240 * 2)
      #expect(frame.bytes[1] == 128, "chroma is neutral")
      let pixels = Self.luma(of: frame.bytes, width: 320, height: 240, stride: 2, offset: 0)
      let reading = Self.decode(pixels)
      guard case .board(let us, let step) = reading else {
        Issue.record("frame \(readings.count) (buffer \(frame.index)) carries no board")
        return
      }
      readings.append((us, step))
    }
    #expect(readings.first!.us >= before / 1_000, "the board carries microseconds")
    for (a, b) in zip(readings, readings.dropFirst()) {
      #expect(b.step == (a.step + 1) % LightBoardLayout.barPeriod, "one bar step per frame")
      #expect(b.us >= a.us, "render times never go back")
    }
    // The four buffers are used in turn: never-queued ones first, then as the driver hands them back.
    #expect(frames.prefix(8).map(\.index) == [0, 1, 2, 3, 0, 1, 2, 3])
  }

  @Test(
    "The scene is drawn once per output format, and every frame equals the whole board drawn anew"
  )
  func sceneOncePerFormat() async throws {
    // A frame's picture is the still scene with the bar and the code band over it. Drawing the
    // scene for every frame made the feeder spend most of a CPU at real-time priority in the VM
    // (a debug build under emulation: 25 ms a frame at 60 fps), beside the app it measures.
    let fake = Self.fakeNode(fourCC: "YUYV")
    let report = try await Self.feed(fake, frames: 10)
    #expect(report.formats.count == 1)
    #expect(
      report.scenesRendered == report.formats.count,
      "\(report.scenesRendered) scenes for \(report.framesSent) frames")
    var fresh = [UInt8](repeating: 0, count: 320 * 240)
    for (n, frame) in fake.outputFrames.enumerated() {
      let pixels = Self.luma(of: frame.bytes, width: 320, height: 240, stride: 2, offset: 0)
      let reading = Self.decode(pixels)
      guard case .board(let us, let step) = reading else {
        Issue.record("frame \(n) carries no board")
        return
      }
      fresh.withUnsafeMutableBufferPointer {
        LightBoard.render(
          captureTime: us * 1_000, sequence: UInt64(step), width: 320, height: 240, bytesPerRow: 320,
          into: $0.baseAddress!)
      }
      #expect(pixels == fresh, "frame \(n) differs from the board drawn anew")
      let chroma = Self.luma(of: frame.bytes, width: 320, height: 240, stride: 2, offset: 1)
      #expect(chroma.allSatisfy { $0 == 128 }, "frame \(n): chroma is neutral everywhere")
    }
  }

  @Test("A planar capture format gets the board in its Y plane and neutral chroma")
  func planarFormat() async throws {
    let fake = Self.fakeNode(fourCC: "GREY")
    let report = try await Self.feed(fake, frames: 3)
    #expect(report.formats == ["320x240 GREY"])
    let pixels = try #require(fake.outputFrames.last).bytes
    #expect(pixels.count == 320 * 240)
    let reading = Self.decode(pixels)
    guard case .board = reading else {
      Issue.record("no board in the GREY frame")
      return
    }
  }

  @Test("A capture format the board cannot be written in is reported, and nothing is queued")
  func unsupportedFormat() async throws {
    let fake = Self.fakeNode(fourCC: "MJPG")
    let feeder = try LightBoardFeeder(
      outputPath: FakeV4L2Kernel.path, capturePath: FakeV4L2Kernel.path, kernel: fake.kernel, frameRate: 200)
    try feeder.start()
    let seen = await waitUntil(timeout: .seconds(60)) { feeder.currentReport.unsupportedFormat != nil }
    let report = feeder.stop()
    #expect(seen)
    #expect(report.unsupportedFormat == "320x240 MJPG")
    #expect(report.framesSent == 0)
    #expect(fake.outputFrames.isEmpty)
  }

  @Test("A node without video output is refused when the feeder is made")
  func notAnOutput() throws {
    let fake = FakeV4L2Kernel()
    #expect(throws: V4L2Error.self) {
      try LightBoardFeeder(
        outputPath: FakeV4L2Kernel.path, capturePath: FakeV4L2Kernel.path, kernel: fake.kernel)
    }
  }

  @Test("A feeder that missed more than one deadline in 20 is said in one line, with its CPU share")
  func lateWarning() {
    var info = BenchResults.LightBoardFeedInfo(
      output: "/dev/video2", capture: "/dev/video1", loopVideo: true, framesSent: 95, framesSkipped: 0,
      deadlinesMissed: 5, framesPerSecond: 59.94, formats: [], unsupportedFormat: nil, realtime: true,
      failure: nil)
    #expect(LightBoardFeed.lateWarning(info) == nil, "5 of 100 is not more than one in 20")
    info.deadlinesMissed = 6
    info.cpuShare = 0.951
    #expect(
      LightBoardFeed.lateWarning(info)
        == "--feed-light-board: the feeder missed 6 of 101 frame deadlines at 59.94 fps; its thread used 95% of a CPU"
    )
    info.cpuShare = nil
    info.framesSent = 0
    #expect(
      LightBoardFeed.lateWarning(info)
        == "--feed-light-board: the feeder missed 6 of 6 frame deadlines at 59.94 fps")
  }

  @Test("The format is read every millisecond, less often where a read is slow, never beyond half a frame")
  func formatPollInterval() {
    var poll = LightBoardFeeder.FormatPoll(period: 16_683_350)
    #expect(poll.interval == 1_000_000, "before any read")
    for _ in 0..<50 { poll.note(cost: 5_000) }
    #expect(poll.interval == 1_000_000, "5 µs reads")
    for _ in 0..<200 { poll.note(cost: 200_000) }
    #expect((3_900_000...4_000_000).contains(poll.interval), "0.2 ms reads: 20 reads' cost, \(poll.interval)")
    for _ in 0..<200 { poll.note(cost: 1_000_000) }
    #expect(poll.interval == 8_341_675, "1 ms reads: half the frame period")
    #expect(LightBoardFeeder.FormatPoll(period: 1_000_000).interval == 1_000_000)
  }
}
