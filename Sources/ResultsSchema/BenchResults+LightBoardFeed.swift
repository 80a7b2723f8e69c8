extension BenchResults {
  /// The light board fed into a V4L2 output node that the driver loops into the camera's capture
  /// node (`--feed-light-board`). When looping is off or the capture format cannot carry the
  /// board, runs find their first live frame by change detection on the driver's own pattern:
  /// each run's `method` says which it was.
  public struct LightBoardFeedInfo: Codable, Sendable, Hashable {
    /// The output node written, e.g. `/dev/video2`.
    public var output: String
    /// The capture node whose format the output followed (the camera).
    public var capture: String
    /// Whether the capture node's "Loop Video" control was on when feeding began; absent when the
    /// node has no such control (not vivid).
    public var loopVideo: Bool?
    /// Frames queued, in all.
    public var framesSent: Int
    /// Ticks with no free output buffer.
    public var framesSkipped: Int
    /// Frame periods the feeder's thread was late for and skipped.
    public var deadlinesMissed: Int
    /// The frame rate fed, frames per second (the capture node's).
    public var framesPerSecond: Double
    /// The output formats, in the order the apps' capture formats asked for them (`640x480 YUYV`).
    public var formats: [String]
    /// A capture format the board could not be written in, if one was seen.
    public var unsupportedFormat: String?
    /// Whether the feeder's thread got `SCHED_FIFO`.
    public var realtime: Bool
    /// Why feeding stopped early, if it did.
    public var failure: String?
    /// For each format the output followed after the first: ms from seeing the capture node's new
    /// format to the output streaming it (vivid loops only while both agree, so an app's frames
    /// before that show vivid's own pattern). Absent in older results.
    public var followMilliseconds: [Double]? = nil
    /// The feeder thread's CPU time over its wall time: the share of one CPU feeding took from
    /// the machine the apps ran on (it runs at real-time priority). Absent in older results.
    public var cpuShare: Double? = nil
    /// Runs before which bench set the camera to the format the same configuration left in its
    /// last run (the feeder then followed it before the app started: no follow inside the run),
    /// and runs for which that failed (the node was busy, or the feeder did not follow within
    /// 3 s; the run then went ahead). Absent in older results.
    public var primedRuns: Int? = nil
    /// See `primedRuns`.
    public var primingFailed: Int? = nil
    /// Creates the record.
    public init(
      output: String, capture: String, loopVideo: Bool?, framesSent: Int, framesSkipped: Int,
      deadlinesMissed: Int, framesPerSecond: Double, formats: [String], unsupportedFormat: String?,
      realtime: Bool, failure: String?
    ) {
      self.output = output
      self.capture = capture
      self.loopVideo = loopVideo
      self.framesSent = framesSent
      self.framesSkipped = framesSkipped
      self.deadlinesMissed = deadlinesMissed
      self.framesPerSecond = framesPerSecond
      self.formats = formats
      self.unsupportedFormat = unsupportedFormat
      self.realtime = realtime
      self.failure = failure
    }
  }
}
