import BenchAnalysis
import V4L2Camera

/// `--feed-light-board` for one benchmark: the feeder started before the first run and stopped
/// after the last, and what it did, for results.
struct LightBoardFeed {
  let feeder: LightBoardFeeder
  let loopVideo: Bool?

  /// Starts feeding when `settings` asks for it; nil when it does not, or when the feeder cannot
  /// start (`note` gets one line why: the runs then find their first frames by change detection).
  static func start(settings: RunSettings, note: (String) -> Void) -> LightBoardFeed? {
    guard let output = settings.feedLightBoard, let capture = settings.camera.devicePath else { return nil }
    let loopVideo = Self.loopVideo(capture: capture)
    if loopVideo == false {
      note("--feed-light-board: \(capture) has Loop Video off; runs fall back to change detection")
    }
    do {
      let feeder = try LightBoardFeeder(outputPath: output, capturePath: capture)
      try feeder.start()
      return LightBoardFeed(feeder: feeder, loopVideo: loopVideo)
    } catch {
      note("--feed-light-board \(output): cannot feed (\(error)); runs fall back to change detection")
      return nil
    }
  }

  /// The capture node's vivid "Loop Video" control: on, off, or nil when it has none.
  static func loopVideo(capture: String) -> Bool? {
    guard let camera = try? V4L2Camera(path: capture), (try? camera.open()) != nil else { return nil }
    defer { camera.close() }
    guard let control = try? camera.control(named: "Loop Video"),
      let value = try? camera.value(ofControl: control.id)
    else { return nil }
    return value != 0
  }

  /// Stops feeding; what was fed.
  func stop() -> BenchResults.LightBoardFeedInfo {
    let r = feeder.stop()
    var info = BenchResults.LightBoardFeedInfo(
      output: feeder.outputPath, capture: feeder.capturePath, loopVideo: loopVideo, framesSent: r.framesSent,
      framesSkipped: r.framesSkipped, deadlinesMissed: r.deadlinesMissed, framesPerSecond: r.framesPerSecond,
      formats: r.formats, unsupportedFormat: r.unsupportedFormat, realtime: r.realtime, failure: r.failure)
    info.followMilliseconds = r.followMilliseconds.isEmpty ? nil : r.followMilliseconds
    return info
  }
}
