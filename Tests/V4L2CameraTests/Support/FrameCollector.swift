import CaptureKit
import Foundation
import Synchronization

/// Collects delivered frames and waits for a number of them.
final class FrameCollector: Sendable {
  let frames = Mutex<[VideoFrame]>([])

  var deliver: @Sendable (VideoFrame) -> Void {
    { frame in self.frames.withLock { $0.append(frame) } }
  }

  var count: Int { frames.withLock { $0.count } }

  /// Waits until `count` frames arrived or `seconds` passed; returns whether they arrived.
  func wait(for count: Int, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if self.count >= count { return true }
      usleep(2_000)
    }
    return self.count >= count
  }
}

/// Waits until `condition` holds or `seconds` passed.
func eventually(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    usleep(2_000)
  }
  return condition()
}
