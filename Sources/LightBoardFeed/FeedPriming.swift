import Synchronization
import SystemCalls
import V4L2Camera

/// Puts the looped camera back in the format a configuration chose in its own last run, before
/// its next run starts, and waits for the feeder to stream it.
///
/// bench alternates configurations, so without this the camera holds the format the *previous*
/// configuration chose (camera-app GREY, a libv4l2 client YUYV): the app's own `VIDIOC_S_FMT`
/// then changes it, and the feeder reconfigures vivid's looped output (tens of milliseconds under
/// emulation, `feed.follow`) while the app sets up its buffers and stream on the same device,
/// under vivid's one lock. A warm launch on a real camera finds the format its own app left.
/// The first run of each configuration (a warm-up, unless `--warmup 0`) still follows.
package final class FeedPriming: Sendable {
  struct State {
    var feeder: LightBoardFeeder?
    /// Per configuration: the capture format after its last run.
    var formats: [String: V4L2FrameLayout] = [:]
    var primed = 0
    var failed = 0
  }
  /// Runs primed, and runs whose priming failed (busy node, or no follow in time).
  package var counts: (primed: Int, failed: Int) { state.withLock { ($0.primed, $0.failed) } }
  private let state = Mutex(State())
  /// How long to wait for the feeder to stream a primed format (a follow: tens of ms emulated).
  static let timeoutNs: UInt64 = 3_000_000_000

  /// Priming with no feeder yet (``attach(_:)``) and nothing known.
  package init() {}

  /// The feeder to prime (from when it starts feeding).
  package func attach(_ feeder: LightBoardFeeder) { state.withLock { $0.feeder = feeder } }

  /// After a run of `config`, its app gone: remembers the capture format it left.
  package func noteFormat(after config: String) {
    guard let feeder = state.withLock({ $0.feeder }), let format = feeder.captureFormat() else { return }
    state.withLock { $0.formats[config] = format }
  }

  /// Before a run of `config`: sets the format its last run left, when the camera holds another,
  /// and waits until the feeder streams it (at most ``timeoutNs``). True when it primed, false
  /// when it could not (the node was busy, or the feeder did not follow in time), nil when there
  /// was nothing to do.
  @discardableResult
  package func prime(before config: String, interrupted: () -> Bool = { false }) -> Bool? {
    let (feeder, wanted) = state.withLock { ($0.feeder, $0.formats[config]) }
    guard let feeder, let wanted else { return nil }
    if let current = feeder.captureFormat(), LightBoardFeeder.sameFormat(current, wanted),
      feeder.outputStreams(wanted)
    {
      return nil
    }
    let primed = primeNow(feeder, wanted, interrupted: interrupted)
    state.withLock { primed ? ($0.primed += 1) : ($0.failed += 1) }
    return primed
  }

  private func primeNow(_ feeder: LightBoardFeeder, _ wanted: V4L2FrameLayout, interrupted: () -> Bool)
    -> Bool
  {
    do {
      try feeder.setCaptureFormat(wanted)
    } catch {
      return false
    }
    let deadline = MonotonicClock.now() &+ Self.timeoutNs
    while !feeder.outputStreams(wanted) {
      if interrupted() || MonotonicClock.now() > deadline { return false }
      MonotonicClock.sleep(nanoseconds: 2_000_000)
    }
    return true
  }
}
