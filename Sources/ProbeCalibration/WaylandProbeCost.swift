import Probe
import SystemCalls
import WaylandClient

/// What the Wayland probe costs and how late it is, from `WaylandProbeCost.run`.
package struct WaylandProbeCostReport: Sendable, Codable, Hashable {
  /// How many times smaller than the output, in each dimension, the images the probe analysed
  /// were (2 for a 640×360 output).
  package var readScale: Int
  /// How long the probe watched, seconds.
  package var seconds: Double
  /// Frames the probe copied and delivered in that time (one per output commit with damage that
  /// it had a copy pending for).
  package var framesObserved: Int
  /// Of those, frames copied late: asked for more than one refresh after the previous commit,
  /// because the probe was busy (`ProbeFrame.seenLate`).
  package var framesLate: Int
  /// The probe thread's CPU time per frame, microseconds (`CLOCK_THREAD_CPUTIME_ID`: waking,
  /// the screencopy requests and events, converting to luma, the live-frame detector).
  package var probeMicrosecondsPerFrame: Double
  /// The probe's share of one core at the rate it observed, percent.
  package var probePercentOfCore: Double
  /// Of `probeMicrosecondsPerFrame`, the live-frame detector's part, microseconds.
  package var detectorMicrosecondsPerFrame: Double
  /// The probe's lag, received − presented, over the frames observed: median, ms.
  package var lagP50Milliseconds: Double
  /// The 99th percentile (nearest rank), ms.
  package var lagP99Milliseconds: Double
  /// The largest, ms.
  package var lagMaximumMilliseconds: Double
}

/// Measures the Wayland probe on a running wlroots compositor while a client changes the output
/// (the caller starts it: a real Wayland client, every frame new): the probe thread's CPU time
/// per copied frame and the lag from the compositor's presentation to the probe's receipt.
package enum WaylandProbeCost {
  /// Watches the compositor at `socket` for `seconds` after its first frame and an arm.
  /// - Throws: `WaylandError` when the compositor or screencopy is missing, or no frame comes.
  package static func run(socket: String, seconds: Double = 4) throws(WaylandError) -> WaylandProbeCostReport
  {
    let monitor = try DisplayMonitor(waylandSocket: socket)
    defer { monitor.stop() }
    let waitedInVain = MonotonicClock.sleep(
      until: MonotonicClock.now() &+ 5_000_000_000, slice: 1_000_000,
      shouldStop: { (monitor.waylandProbeThreadCost?.frames ?? 0) > 0 || monitor.failure != nil })
    guard !waitedInVain, monitor.failure == nil else {
      throw WaylandError(
        .timedOut, monitor.failure ?? "the Wayland probe copied no frame of \(socket) in 5 s")
    }
    monitor.arm(.launch(since: MonotonicClock.now()))  // restarts the lag account
    let (cpu0, frames0) = monitor.waylandProbeThreadCost ?? (0, 0)
    let analysis0 = monitor.analysisCost
    let late0 = monitor.waylandLateFrames ?? 0
    MonotonicClock.sleep(nanoseconds: UInt64(seconds * 1e9))
    let (cpu1, frames1) = monitor.waylandProbeThreadCost ?? (0, 0)
    let analysis1 = monitor.analysisCost
    let late1 = monitor.waylandLateFrames ?? 0
    let lag = monitor.waylandProbeLag
    if let failure = monitor.failure { throw WaylandError(.connectionLost, failure) }
    let observed = Int(frames1 - frames0)
    let perFrame = observed == 0 ? Double.nan : Double(cpu1 - cpu0) / Double(observed) / 1000
    return WaylandProbeCostReport(
      readScale: monitor.waylandReadScale ?? 1, seconds: seconds, framesObserved: observed,
      framesLate: Int(late1 - late0),
      probeMicrosecondsPerFrame: perFrame,
      probePercentOfCore: perFrame * Double(observed) / seconds / 1e6 * 100,
      detectorMicrosecondsPerFrame: Double(analysis1.nanoseconds - analysis0.nanoseconds)
        / Double(max(1, analysis1.frames - analysis0.frames)) / 1000,
      lagP50Milliseconds: Double(lag?.p50Nanoseconds ?? 0) / 1e6,
      lagP99Milliseconds: Double(lag?.p99Nanoseconds ?? 0) / 1e6,
      lagMaximumMilliseconds: Double(lag?.maximumNanoseconds ?? 0) / 1e6)
  }
}
