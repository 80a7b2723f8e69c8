import CaptureKit
import Foundation
import LightBoard
import SystemCalls
import TestThreads
import Testing
import TestSupport
@testable import SyntheticCamera

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct SyntheticCameraStreamTests {
  static func decode(_ frame: VideoFrame) -> LightBoardReading {
    frame.pixels.withUnsafeBufferPointer {
      LightBoard.decode(
        LumaImage(
          base: $0.baseAddress!, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow))
    }
  }

  static func checkFrames(_ frames: [VideoFrame], width: Int, height: Int) {
    for (a, b) in zip(frames, frames.dropFirst()) {
      #expect(a.sequence < b.sequence)
      #expect(a.captureTime < b.captureTime)
    }
    for frame in frames {
      #expect(frame.width == width && frame.height == height)
      #expect(
        decode(frame)
          == .board(captureTimeMicroseconds: frame.captureTime / 1_000, barStep: Int(frame.sequence % 32))
      )
    }
  }

  @Test(
    "frames arrive in order, with increasing sequence and capture time, and decode to their own capture time")
  func framesInOrder() throws {
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: temporaryFolder("state"))
    try camera.open()
    let collector = Collector<VideoFrame>()
    let before = MonotonicClock.now()
    try camera.startStream(collector.append)
    #expect(camera.realtimePriorityGranted != nil)
    #expect(collector.blockUntilCount(10, timeout: .seconds(10)))
    camera.stopStream()
    camera.close()
    let frames = collector.values
    try #require(frames.count >= 10)
    #expect(frames[0].sequence == 0)
    #expect(frames[0].captureTime >= before + 2_000_000)  // after the first-frame latency (2 ms)
    Self.checkFrames(frames, width: 320, height: 240)
  }

  @Test("no frame is delivered after stopStream returns, and the stream can start again")
  func stopStopsDelivery() throws {
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: temporaryFolder("state"))
    try camera.open()
    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(collector.blockUntilCount(3, timeout: .seconds(10)))
    camera.stopStream()
    // Counted where the frame thread delivers: a frame after the stop returned is counted even
    // when it comes late, so no sleep is needed to see it.
    #expect(camera.framesDeliveredAfterStop == 0)
    let stopped = collector.count

    let again = Collector<VideoFrame>()
    try camera.startStream(again.append)
    #expect(again.blockUntilCount(2, timeout: .seconds(10)))
    camera.close()
    #expect(camera.framesDeliveredAfterStop == 0, "a frame came after stopStream or close returned")
    #expect(collector.count == stopped, "the first stream delivered after stopStream returned")
    #expect(again.count >= 2)
  }

  @Test("a binned format streams at its own size, the noisy profile's frames still decode")
  func binnedAndNoisy() throws {
    let fast = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: temporaryFolder("state"))
    try fast.open()
    let binned = try #require(fast.formats.first { $0.isBinned })
    try fast.setActiveFormat(binned, frameRate: binned.maxFrameRate)
    let a = Collector<VideoFrame>()
    try fast.startStream(a.append)
    #expect(a.blockUntilCount(4, timeout: .seconds(10)))
    fast.close()
    Self.checkFrames(a.values, width: binned.width, height: binned.height)

    let noisyProfile = try CostProfile.load(path: Fixtures.profilePath("noisy.json"))
    let noisy = SyntheticCamera(profile: noisyProfile, stateDirectory: temporaryFolder("state"))
    try noisy.open()
    let b = Collector<VideoFrame>()
    try noisy.startStream(b.append)
    #expect(b.blockUntilCount(4, timeout: .seconds(10)))
    noisy.close()
    #expect(b.values.count >= 4)
    Self.checkFrames(b.values, width: 640, height: 480)
  }

  @Test("captureStill requires the photo output, then returns a full-resolution frame with the current time")
  func captureStill() throws {
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: temporaryFolder("state"))
    try camera.open()
    let error = #expect(throws: SyntheticCameraError.self) { try camera.captureStill() }
    #expect(error?.code == .photoOutputNotInitialized)
    try camera.initializeOutput(.photo)
    let before = MonotonicClock.now()
    let still = try camera.captureStill()
    let after = MonotonicClock.now()
    #expect(still.width == 320 && still.height == 240)
    #expect(still.captureTime >= before && still.captureTime <= after)
    #expect(Self.decode(still) == .board(captureTimeMicroseconds: still.captureTime / 1_000, barStep: 0))
    camera.close()
    try camera.open()
    #expect(throws: SyntheticCameraError.self) { try camera.captureStill() }  // outputs do not survive close
    camera.close()
  }

  @Test("calls out of order fail with a clear error")
  func misuse() throws {
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: temporaryFolder("state"))
    let notOpen = #expect(throws: SyntheticCameraError.self) { try camera.startStream { _ in } }
    #expect(notOpen?.code == .notOpen)
    try camera.open()
    #expect((#expect(throws: SyntheticCameraError.self) { try camera.open() })?.code == .alreadyOpen)
    let odd = CaptureFormat(width: 1234, height: 567, maxFrameRate: 30)
    #expect(
      (#expect(throws: SyntheticCameraError.self) { try camera.setActiveFormat(odd, frameRate: 30) })?.code
        == .unsupportedFormat)
    let full = camera.formats[0]
    #expect(
      (#expect(throws: SyntheticCameraError.self) { try camera.setActiveFormat(full, frameRate: 500) })?.code
        == .unsupportedFrameRate)
    try camera.startStream { _ in }
    #expect(
      (#expect(throws: SyntheticCameraError.self) { try camera.startStream { _ in } })?.code == .streaming)
    #expect(
      (#expect(throws: SyntheticCameraError.self) { try camera.setActiveFormat(full, frameRate: 30) })?.code
        == .streaming)
    camera.close()
  }
}
