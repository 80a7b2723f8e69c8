import BenchKit
import CV4L2Shims
import LightBoard
import SystemCalls
import TestSupport
import Testing
import V4L2Camera
import V4L2TestSupport

/// The light-board feeder against the fake kernel: what it queues on the output, in which order,
/// in which format. No timing is asserted (the cadence's regularity is a benchmark's business).
@Suite("The light-board feeder writes the board into an output queue", .timeLimit(.minutes(2)))
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
      var pixels = Self.luma(of: frame.bytes, width: 320, height: 240, stride: 2, offset: 0)
      let reading = pixels.withUnsafeMutableBufferPointer {
        LightBoard.decode(
          LumaImage(base: UnsafePointer($0.baseAddress!), width: 320, height: 240, bytesPerRow: 320))
      }
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

  @Test("A planar capture format gets the board in its Y plane and neutral chroma")
  func planarFormat() async throws {
    let fake = Self.fakeNode(fourCC: "GREY")
    let report = try await Self.feed(fake, frames: 3)
    #expect(report.formats == ["320x240 GREY"])
    var pixels = try #require(fake.outputFrames.last).bytes
    #expect(pixels.count == 320 * 240)
    let reading = pixels.withUnsafeMutableBufferPointer {
      LightBoard.decode(
        LumaImage(base: UnsafePointer($0.baseAddress!), width: 320, height: 240, bytesPerRow: 320))
    }
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
}
