import Foundation
import ResultsSchema
import V4L2Camera

/// `--feed-light-board` for one benchmark: the feeder started before the first run and stopped
/// after the last, and what it did, for results.
package struct LightBoardFeed {
  package let feeder: LightBoardFeeder
  let loopVideo: Bool?

  /// Starts feeding `output` (`--feed-light-board`) for the camera node `capture` when both are
  /// given; nil when they are not, or when the feeder cannot start (`note` gets one line why: the
  /// runs then find their first frames by change detection). Each follow of the capture format
  /// after the first is recorded in `follows`.
  package static func start(
    output: String?, capture: String?, follows: FeedFollowLog? = nil, note: (String) -> Void
  ) -> LightBoardFeed? {
    guard let output, let capture else { return nil }
    let loopVideo = Self.loopVideo(capture: capture)
    if loopVideo == false {
      note("--feed-light-board: \(capture) has Loop Video off; runs fall back to change detection")
    }
    do {
      var onFollow: (@Sendable (UInt64, UInt64, String) -> Void)?
      if let follows {
        onFollow = { seenAt, streamingAt, format in
          follows.record(seenAt: seenAt, streamingAt: streamingAt, format: format)
        }
      }
      let feeder = try LightBoardFeeder(outputPath: output, capturePath: capture, onFollow: onFollow)
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
  package func stop() -> BenchResults.LightBoardFeedInfo {
    let r = feeder.stop()
    var info = BenchResults.LightBoardFeedInfo(
      output: feeder.outputPath, capture: feeder.capturePath, loopVideo: loopVideo, framesSent: r.framesSent,
      framesSkipped: r.framesSkipped, deadlinesMissed: r.deadlinesMissed, framesPerSecond: r.framesPerSecond,
      formats: r.formats, unsupportedFormat: r.unsupportedFormat, realtime: r.realtime, failure: r.failure)
    info.followMilliseconds = r.followMilliseconds.isEmpty ? nil : r.followMilliseconds
    if r.wallNanoseconds > 0 { info.cpuShare = Double(r.cpuNanoseconds) / Double(r.wallNanoseconds) }
    return info
  }

  /// One line when the feeder could not keep the camera's rate (it missed more than one
  /// deadline in 20), else nil: its frames then came irregularly, and its thread, at real-time
  /// priority, may have taken CPU time from the apps measured.
  package static func lateWarning(_ info: BenchResults.LightBoardFeedInfo) -> String? {
    let ticks = info.framesSent + info.framesSkipped + info.deadlinesMissed
    guard ticks > 0, info.deadlinesMissed * 20 > ticks else { return nil }
    let share = info.cpuShare.map { String(format: "; its thread used %.0f%% of a CPU", $0 * 100) } ?? ""
    return "--feed-light-board: the feeder missed \(info.deadlinesMissed) of \(ticks) frame deadlines"
      + " at \(String(format: "%.4g", info.framesPerSecond)) fps\(share)"
  }
}
