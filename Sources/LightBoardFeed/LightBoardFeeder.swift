import Dispatch
import LightBoard
import Synchronization
import SystemCalls
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

/// Writes light-board frames into a V4L2 video output node at the camera's rate, on a real-time
/// thread of its own, so that a driver that loops its output into its capture node (vivid's
/// "Loop Video") shows the board to any app capturing from that node: the probe then reads
/// capture times from the app's window exactly as from camera-app.
///
/// Each frame carries its render time (`CLOCK_MONOTONIC`, read just before it is drawn) and a
/// sequence number (the bar's slot). The thread sleeps to absolute deadlines one frame period
/// apart (`clock_nanosleep(TIMER_ABSTIME)`), so the cadence does not drift; a deadline already
/// missed by more than a period is skipped, not caught up. Before each frame it reads the
/// capture node's format (`VIDIOC_G_FMT`) and, when the capturing app chose another one,
/// reconfigures the output to match (vivid loops only equal pixel formats): the frame rate is
/// the capture node's (`VIDIOC_G_PARM`), else 30 fps.
package final class LightBoardFeeder: Sendable {
  /// What the feeder did, for results and tests.
  package struct Report: Sendable, Hashable {
    /// Frames queued to the output.
    package var framesSent = 0
    /// Ticks with no free buffer (the driver held them all).
    package var framesSkipped = 0
    /// Deadlines missed by more than a period and skipped (the thread was late).
    package var deadlinesMissed = 0
    /// The output formats, in the order the capture node asked for them (`640x480 YUYV`).
    package var formats: [String] = []
    /// A capture format the board cannot be written in, if one was seen.
    package var unsupportedFormat: String?
    /// The frame rate fed, frames per second.
    package var framesPerSecond: Double = 0
    /// Whether the thread got `SCHED_FIFO`.
    package var realtime = false
    /// Why feeding stopped early (an output error), if it did.
    package var failure: String?
    /// For each format followed after the first, ms from seeing it (between ticks, or at a tick
    /// when the thread was late) to the output streaming it (the first 256).
    package var followMilliseconds: [Double] = []
    /// How many times the whole picture (the scene behind the board) was drawn.
    package var scenesRendered = 0
    /// The feeder thread's CPU time and its wall time from start to stop, ns (filled in when
    /// the thread ends): what share of a CPU feeding took from the apps measured beside it.
    package var cpuNanoseconds: UInt64 = 0
    /// See `cpuNanoseconds`.
    package var wallNanoseconds: UInt64 = 0
    /// The format the output streams now (`640x480 GREY`): set once its first frames are queued.
    package var streaming: String?
  }

  /// The output node written.
  package let outputPath: String
  /// The capture node whose format is followed.
  package let capturePath: String
  let output: V4L2VideoOutput
  let watch: V4L2FormatWatch
  let fixedRate: Double?
  let stopRequested = Atomic<Bool>(false)
  let started = Atomic<Bool>(false)
  let finished = DispatchSemaphore(value: 0)
  let report = Mutex(Report())
  /// Called after each queued frame with its sequence number and render time (ns), on the
  /// feeder's thread (tests follow the cadence with it).
  let onFrame: (@Sendable (_ sequence: UInt64, _ renderTime: UInt64) -> Void)?
  /// Called after each format followed after the first, with when the new format was seen and
  /// when the output streamed it (ns) and the format, on the feeder's thread.
  let onFollow: (@Sendable (_ seenAt: UInt64, _ streamingAt: UInt64, _ format: String) -> Void)?

  /// Opens the output node and the capture node (through `kernel`: by default the system calls
  /// themselves, ``V4L2Kernel/direct``, so the capture node's format is the driver's, not
  /// libv4l2's cached copy; a fake kernel in tests).
  /// - Parameters:
  ///   - frameRate: frames per second, or nil for the capture node's rate.
  ///   - onFrame: called after each queued frame, on the feeder's thread.
  ///   - onFollow: called after each format followed after the first, on the feeder's thread.
  /// - Throws: `V4L2Error` when either node cannot be opened or is not of its kind.
  package init(
    outputPath: String, capturePath: String, kernel: V4L2Kernel = .direct, frameRate: Double? = nil,
    onFrame: (@Sendable (_ sequence: UInt64, _ renderTime: UInt64) -> Void)? = nil,
    onFollow: (@Sendable (_ seenAt: UInt64, _ streamingAt: UInt64, _ format: String) -> Void)? = nil
  ) throws(V4L2Error) {
    self.outputPath = outputPath
    self.capturePath = capturePath
    self.output = try V4L2VideoOutput(path: outputPath, kernel: kernel)
    self.watch = try V4L2FormatWatch(path: capturePath, kernel: kernel)
    self.fixedRate = frameRate.flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil }
    self.onFrame = onFrame
    self.onFollow = onFollow
  }

  /// Starts the feeder's thread (once).
  /// - Throws: the ``Errno`` of `pthread_create`.
  package func start() throws(Errno) {
    guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
    do {
      try SystemThread.start(name: "ff-board-feed") { [self] in
        run()
        finished.signal()
      }
    } catch {
      finished.signal()
      throw error
    }
  }

  /// Stops the thread (within one frame period), stops the output stream, and returns what was done.
  @discardableResult
  package func stop() -> Report {
    stopRequested.store(true, ordering: .releasing)
    if started.load(ordering: .acquiring) {
      finished.wait()
      finished.signal()
    }
    output.stop()
    return report.withLock { $0 }
  }

  /// The capture node's format now (`VIDIOC_G_FMT`), or nil when the driver does not say.
  package func captureFormat() -> V4L2FrameLayout? { watch.currentFormat() }

  /// Sets the capture node's format to `layout` (as the app that chose it would; `EBUSY`
  /// while an app holds buffers there); the feeder then follows it as it follows any app.
  package func setCaptureFormat(_ layout: V4L2FrameLayout) throws(V4L2Error) {
    try watch.setFormat(like: layout)
  }

  /// Whether the output streams `layout`'s pixel format and size (its first frames are queued).
  package func outputStreams(_ layout: V4L2FrameLayout) -> Bool {
    report.withLock { $0.streaming == layout.description }
  }

  /// What was done so far.
  package var currentReport: Report { report.withLock { $0 } }

  private func run() {
    let startedAt = MonotonicClock.now()
    let cpuAtStart = MonotonicClock.threadCPUTime()
    defer {
      let cpu = MonotonicClock.threadCPUTime() &- cpuAtStart
      let wall = MonotonicClock.now() &- startedAt
      report.withLock {
        $0.cpuNanoseconds = cpu
        $0.wallNanoseconds = wall
      }
    }
    let realtime = SystemThread.requestRealtime(priority: 11)
    let rate = fixedRate ?? watch.frameRate().flatMap { $0 > 0 && $0 <= 1000 ? $0 : nil } ?? 30
    report.withLock {
      $0.realtime = realtime
      $0.framesPerSecond = rate
    }
    let period = UInt64((1e9 / rate).rounded())
    var deadline = MonotonicClock.now()
    var sequence: UInt64 = 0
    var followed: V4L2FrameLayout?
    var luma: [UInt8] = []
    var poll = FormatPoll(period: period)
    while !stopRequested.load(ordering: .acquiring) {
      deadline &+= period
      let now = MonotonicClock.now()
      if now > deadline &+ period {
        let missed = (now - deadline) / period
        deadline &+= missed * period
        report.withLock { $0.deadlinesMissed += Int(missed) }
      }
      var changedAt: UInt64?
      if waitForDeadline(deadline, following: followed, poll: &poll) {
        deadline = MonotonicClock.now()  // the capture format changed: follow it now, not next tick
        changedAt = deadline
      }
      do throws(V4L2Error) {
        let before = followed
        let followStart = changedAt ?? MonotonicClock.now()
        guard let layout = try follow(&followed, luma: &luma) else { continue }
        // A new output format: queue two frames at once (vivid starts an output stream, and
        // re-decides whether it can loop, only with two buffers queued), then note how long
        // following took.
        let reconfigured = before.map { !Self.sameFormat($0, followed) } ?? true
        for _ in 0..<(reconfigured ? 2 : 1) {
          try sendFrame(layout: layout, sequence: &sequence, luma: &luma)
        }
        if reconfigured { report.withLock { $0.streaming = layout.description } }
        if reconfigured, before != nil {
          let streamingAt = MonotonicClock.now()
          let ms = Double(streamingAt &- followStart) / 1e6
          report.withLock { if $0.followMilliseconds.count < 256 { $0.followMilliseconds.append(ms) } }
          onFollow?(followStart, streamingAt, layout.description)
        }
      } catch {
        report.withLock { $0.failure = "\(error)" }
        return
      }
    }
  }

  /// Draws the board for now over the scene in `luma` and queues it, counting it as sent or skipped (no free buffer).
  private func sendFrame(layout: V4L2FrameLayout, sequence: inout UInt64, luma: inout [UInt8])
    throws(V4L2Error)
  {
    let renderTime = MonotonicClock.now()
    let board = sequence
    let sent = try luma.withUnsafeMutableBufferPointer { pixels throws(V4L2Error) -> Bool in
      let base = pixels.baseAddress!
      LightBoard.renderBoard(
        captureTime: renderTime, sequence: board, width: layout.width, height: layout.height,
        bytesPerRow: layout.width, into: base)
      return try output.send { frame, confirmed, reused in
        Self.write(UnsafePointer(base), layout: confirmed, into: frame, reused: reused)
      }
    }
    if sent {
      report.withLock { $0.framesSent += 1 }
      onFrame?(board, renderTime)
      sequence &+= 1
    } else {
      report.withLock { $0.framesSkipped += 1 }
    }
  }

  /// Whether two layouts have the same pixel format and size.
  static func sameFormat(_ a: V4L2FrameLayout, _ b: V4L2FrameLayout?) -> Bool {
    guard let b else { return false }
    return a.fourCC == b.fourCC && a.width == b.width && a.height == b.height
  }

  /// Sleeps until `deadline`, looking at the capture node's format every `poll.interval` (a
  /// `VIDIOC_G_FMT`: microseconds natively, so every millisecond): an app starts its stream within tens of milliseconds of
  /// choosing its format, and vivid decides whether it loops when either stream starts, so the
  /// output must stream the new format before the app's stream starts, or its first frames show
  /// vivid's own pattern.
  /// True when the format changed before the deadline (the wait ends early).
  private func waitForDeadline(
    _ deadline: UInt64, following followed: V4L2FrameLayout?, poll: inout FormatPoll
  ) -> Bool {
    while !stopRequested.load(ordering: .acquiring) {
      let now = MonotonicClock.now()
      guard now < deadline else { return false }
      let wake = min(deadline, now &+ poll.interval)
      MonotonicClock.sleep(until: wake)
      guard wake < deadline, let followed else { continue }
      let asked = MonotonicClock.now()
      let current = watch.currentFormat()
      poll.note(cost: MonotonicClock.now() &- asked)
      guard let current else { continue }
      if !Self.sameFormat(current, followed) { return true }
    }
    return false
  }

  /// How often the capture node's format is read between frames: every millisecond, unless a
  /// read costs more than 1/20 of that (an emulated machine: ~1 ms a `VIDIOC_G_FMT` under QEMU's
  /// TCG), when the interval grows to 20 reads' cost, so that watching takes at most about 5% of
  /// a CPU from the apps measured; never beyond half a frame period.
  struct FormatPoll {
    static let fastest: UInt64 = 1_000_000
    let slowest: UInt64
    /// A moving average of a read's wall time, ns.
    var cost: Double = 0
    init(period: UInt64) { slowest = max(Self.fastest, period / 2) }
    var interval: UInt64 { min(slowest, max(Self.fastest, UInt64(cost * 20))) }
    mutating func note(cost ns: UInt64) { cost = cost == 0 ? Double(ns) : cost * 0.9 + Double(ns) * 0.1 }
  }

  /// Matches the output to the capture node's format; the layout to draw in, or nil when the
  /// capture format is unknown or not one the board can be written in.
  private func follow(_ followed: inout V4L2FrameLayout?, luma: inout [UInt8]) throws(V4L2Error)
    -> V4L2FrameLayout?
  {
    guard let wanted = watch.currentFormat() else { return output.layout }
    if Self.sameFormat(wanted, followed) { return output.layout }
    followed = wanted
    guard wanted.acceptsLuma else {
      report.withLock { $0.unsupportedFormat = wanted.description }
      output.stop()
      return nil
    }
    let confirmed = try output.configure(like: wanted)
    guard confirmed.acceptsLuma, confirmed.width > 0, confirmed.height > 0 else {
      report.withLock { $0.unsupportedFormat = confirmed.description }
      output.stop()
      return nil
    }
    // The scene never changes: it is drawn once per format, and each frame draws only the bar
    // and the code band over it (``sendFrame``).
    luma = [UInt8](repeating: 0, count: confirmed.width * confirmed.height)
    luma.withUnsafeMutableBufferPointer {
      LightBoard.renderScene(
        width: confirmed.width, height: confirmed.height, bytesPerRow: confirmed.width, into: $0.baseAddress!)
    }
    report.withLock {
      $0.formats.append(confirmed.description)
      $0.scenesRendered += 1
    }
    return confirmed
  }

  /// Lays the board into `frame`: every row the first time a buffer is used, then only the rows
  /// the board changes (bar track and code band; the scene stays in the buffer).
  static func write(
    _ luma: UnsafePointer<UInt8>, layout: V4L2FrameLayout, into frame: UnsafeMutableRawBufferPointer,
    reused: Bool
  ) {
    guard reused else {
      layout.writeLuma(luma, lumaStride: layout.width, into: frame, rows: 0..<layout.height, fillChroma: true)
      return
    }
    let board = LightBoard.layout(width: layout.width, height: layout.height)
    for rect in [board.barTrack, board.codeBand] {
      layout.writeLuma(
        luma, lumaStride: layout.width, into: frame, rows: rect.y..<(rect.y + rect.height), fillChroma: false)
    }
  }
}
