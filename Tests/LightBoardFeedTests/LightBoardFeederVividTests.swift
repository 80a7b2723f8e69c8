import LightBoardFeed
import CaptureKit
import Foundation
import LightBoard
import TestSupport
import SystemCalls
import Testing
import V4L2Camera

/// The feeder against vivid's loop (the VM: `scripts/vivid-integration`), only when
/// `FIRSTFRAME_VIVID_LOOP` names a looped pair as `CAPTURE,OUTPUT` (e.g. `/dev/video1,/dev/video2`:
/// an HDMI capture input and an HDMI output of one vivid instance).
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct LightBoardFeederVividTests {
  static let pair: (capture: String, output: String)? = {
    guard let value = ProcessInfo.processInfo.environment["FIRSTFRAME_VIVID_LOOP"] else { return nil }
    let parts = value.split(separator: ",").map(String.init)
    return parts.count == 2 ? (parts[0], parts[1]) : nil
  }()

  /// vivid's looped capture node, open, with Loop Video on, at 640x480 YUYV.
  static func loopedCamera(_ capturePath: String) throws -> V4L2Camera {
    let camera = try V4L2Camera(path: capturePath)
    try camera.open()
    let loop = try #require(try camera.control(named: "Loop Video"), "vivid's capture node has Loop Video")
    try camera.setValue(1, ofControl: loop.id)
    try camera.setActiveFormat(
      CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: "YUYV"), frameRate: 30)
    return camera
  }

  @Test(
    "an app capturing from vivid's looped node receives the board the feeder wrote, render time before capture",
    .enabled(if: pair != nil, "set FIRSTFRAME_VIVID_LOOP=/dev/videoCAPTURE,/dev/videoOUTPUT to run"))
  func boardThroughTheLoop() throws {
    let (capturePath, outputPath) = try #require(Self.pair)
    let camera = try Self.loopedCamera(capturePath)
    defer { camera.close() }
    try camera.initializeOutput(.preview)

    let feeder = try LightBoardFeeder(outputPath: outputPath, capturePath: capturePath)
    try feeder.start()
    defer { feeder.stop() }
    let found = Collector<(board: UInt64, captured: UInt64)>()
    try camera.startStream { frame in
      let reading = frame.pixels.withUnsafeBufferPointer {
        LightBoard.decode(
          LumaImage(
            base: $0.baseAddress!, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow))
      }
      if case .board(let us, _) = reading { found.append((us, frame.captureTime / 1_000)) }
    }
    let seen = found.blockUntilCount(5, timeout: .seconds(90))
    camera.stopStream()
    let report = feeder.stop()
    #expect(seen, "boards decoded from the capture node: \(found.count); feeder: \(report)")
    #expect(report.failure == nil)
    #expect(report.formats.first?.hasSuffix("YUYV") == true, "the output follows the capture format")
    for item in found.values {
      #expect(item.board <= item.captured, "a board is rendered before the frame carrying it is captured")
    }
  }

  /// A feeder for the pair that logs its follows in `follows`.
  static func feeder(_ capturePath: String, _ outputPath: String, logging follows: FeedFollowLog) throws
    -> LightBoardFeeder
  {
    try LightBoardFeeder(
      outputPath: outputPath, capturePath: capturePath,
      onFollow: { follows.record(seenAt: $0, streamingAt: $1, format: $2) })
  }

  @Test(
    "the feeder follows a format the capturing app changes while it feeds (it reads the driver, not libv4l2's cached format)",
    .enabled(if: pair != nil, "set FIRSTFRAME_VIVID_LOOP=/dev/videoCAPTURE,/dev/videoOUTPUT to run"))
  func followsAChangedFormat() async throws {
    let (capturePath, outputPath) = try #require(Self.pair)
    let camera = try Self.loopedCamera(capturePath)
    defer { camera.close() }
    let follows = FeedFollowLog()
    let feeder = try Self.feeder(capturePath, outputPath, logging: follows)
    try feeder.start()
    defer { feeder.stop() }
    #expect(
      await waitUntil(timeout: .seconds(60)) { feeder.currentReport.formats.count >= 1 },
      "the feeder configured its output: \(feeder.currentReport)")

    // Another pixel format, chosen after the feeder opened the capture node, as an app does
    // (at the same size: vivid loops a scaled output into a scaled capture only partly).
    try camera.setActiveFormat(
      CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: "GREY"), frameRate: 30)
    try camera.initializeOutput(.preview)
    let found = Collector<UInt64>()
    try camera.startStream { frame in
      let reading = frame.pixels.withUnsafeBufferPointer {
        LightBoard.decode(
          LumaImage(
            base: $0.baseAddress!, width: frame.width, height: frame.height, bytesPerRow: frame.bytesPerRow))
      }
      if case .board(let us, _) = reading { found.append(us) }
    }
    let seen = found.blockUntilCount(3, timeout: .seconds(90))
    camera.stopStream()
    let report = feeder.stop()
    #expect(report.formats.last == "640x480 GREY", "the output follows the capture node: \(report)")
    let followed = follows.follows(overlapping: 0, through: .max)
    #expect(followed.map(\.format) == ["640x480 GREY"], "each follow after the first is logged for the runs")
    #expect(followed.allSatisfy { $0.seenAt <= $0.streamingAt })
    #expect(seen, "boards decoded at the new format: \(found.count); feeder: \(report)")
  }

  @Test(
    "bench puts the camera back in a configuration's own format before its run, and the output streams it first",
    .enabled(if: pair != nil, "set FIRSTFRAME_VIVID_LOOP=/dev/videoCAPTURE,/dev/videoOUTPUT to run"))
  func primesAConfigurationsFormat() async throws {
    let (capturePath, outputPath) = try #require(Self.pair)
    let follows = FeedFollowLog()
    let feeder = try Self.feeder(capturePath, outputPath, logging: follows)
    try feeder.start()
    defer { feeder.stop() }
    let priming = FeedPriming()
    priming.attach(feeder)
    #expect(priming.prime(before: "grey") == nil, "nothing is known of a configuration before its first run")

    // Two configurations' runs, as bench alternates them: each app sets its format and exits.
    for (config, fourCC) in [("grey", "GREY"), ("yuyv", "YUYV")] {
      let camera = try Self.loopedCamera(capturePath)
      try camera.setActiveFormat(
        CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: fourCC), frameRate: 30)
      camera.close()
      priming.noteFormat(after: config)
    }
    let yuyv = try #require(feeder.captureFormat())
    #expect(yuyv.fourCC == "YUYV")
    #expect(
      await waitUntil(timeout: .seconds(60)) { feeder.outputStreams(yuyv) },
      "the feeder followed the last app: \(feeder.currentReport)")

    // Before the next run of "grey": its format is set and the output streams it before the run.
    let before = MonotonicClock.now()
    #expect(priming.prime(before: "grey") == true, "feeder: \(feeder.currentReport)")
    let primedAt = MonotonicClock.now()
    let grey = try #require(feeder.captureFormat())
    #expect(grey.description == "640x480 GREY")
    #expect(feeder.outputStreams(grey))
    let followed = follows.follows(overlapping: before, through: primedAt)
    #expect(followed.map(\.format) == ["640x480 GREY"])
    #expect(followed.allSatisfy { $0.streamingAt <= primedAt }, "the follow ended before the run would start")
    // The same configuration again: nothing to do.
    #expect(priming.prime(before: "grey") == nil)
    #expect(priming.counts == (primed: 1, failed: 0))
  }
}
