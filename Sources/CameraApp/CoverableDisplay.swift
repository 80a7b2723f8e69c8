import CaptureKit
import Synchronization
import SystemCalls

/// The app's preview view: forwards frames to the display unless the lock cover is up.
///
/// Locking covers the preview with black before the session stops; while covered, frames that
/// are still in flight are not shown. Without the cover (`--no-cover`) the last frame stays on
/// screen through the lock, which is what the probe counts as stale after unlock.
final class CoverableDisplay: DisplaySink {
  private let base: any DisplaySink
  private let covered = PThreadMutex(false)

  init(_ base: any DisplaySink) { self.base = base }

  func present(_ frame: VideoFrame) {
    PlantedRegression.holdFirstFrame(frame)  // inert unless a planted-regression commit set it
    // The lock is held while presenting so that `cover()` cannot interleave with a present.
    covered.withLock { isCovered in
      if !isCovered { base.present(frame) }
    }
  }

  func presentStamped(_ frame: VideoFrame) -> UInt64 {
    PlantedRegression.holdFirstFrame(frame)  // inert unless a planted-regression commit set it
    return covered.withLock { isCovered in
      isCovered ? MonotonicClock.now() : base.presentStamped(frame)
    }
  }

  func presentBlack() { base.presentBlack() }

  /// Shows black and hides frames until `uncover()`.
  func cover() {
    covered.withLock { isCovered in
      isCovered = true
      base.presentBlack()
    }
  }

  /// Lets frames through again; the screen keeps its content until the next frame.
  func uncover() { covered.withLock { $0 = false } }
}
