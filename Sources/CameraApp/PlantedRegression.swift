import CaptureKit
import Synchronization
import SystemCalls

/// The planted-regression knob: a real slowdown in camera-app's own code, for checking that CI's
/// code-against-code step catches a uniform regression (`scripts/planted-slowdown-check`, issue 25).
///
/// It is **0 in every commit that lands**, and inert at 0: nothing is read, measured or delayed.
/// The check commits a copy of this file with ``firstFrameHoldFraction`` set to 0.10 (never in
/// the working tree) and runs `scripts/ab-gate HEAD <that commit>`, which must fail.
///
/// When the fraction is above 0, the launch's first preview frame is held back, on the camera's
/// frame thread (never the main thread, as `FIRSTFRAME_INJECT_DELAY_MS` waits on the capture
/// queue), by that fraction of the time elapsed since `main` was reached: a launch whose first
/// frame was ready T ms after `main` presents it at (1 + fraction) × T, in every configuration
/// and condition alike. Only the launch's first frame is held, not a relock's.
enum PlantedRegression {
  /// The fraction of the time since `main` by which the launch's first frame is held back
  /// (0.10 = 10 % later); 0 disables the knob. `scripts/planted-slowdown-check` edits this line.
  static let firstFrameHoldFraction: Double = 0

  /// Whether the launch's first frame has gone through ``holdFirstFrame(_:)`` (once per process).
  private static let firstFrameSeen = Atomic<Bool>(false)

  /// Holds the calling thread (the camera's frame thread) before the launch's first camera frame
  /// is presented, by ``firstFrameHoldFraction`` of the time since `main`; returns at once when
  /// the knob is 0, for the splash (`--splash`, capture time 0: not a camera frame), or once the
  /// first camera frame has gone by.
  static func holdFirstFrame(_ frame: VideoFrame) {
    guard firstFrameHoldFraction > 0, frame.captureTime > 0 else { return }
    guard !firstFrameSeen.exchange(true, ordering: .relaxed) else { return }
    let launchedAt = CameraApp.mainReachedAt.load(ordering: .relaxed)
    let now = MonotonicClock.now()
    guard launchedAt > 0, now > launchedAt else { return }
    MonotonicClock.sleep(until: now + UInt64(Double(now - launchedAt) * firstFrameHoldFraction))
  }
}
