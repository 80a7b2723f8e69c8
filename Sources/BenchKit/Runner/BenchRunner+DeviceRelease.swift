import SyntheticCamera
import SystemCalls

extension BenchRunner {
  /// Called once an app's process has ended and been reaped: when it ended holding the synthetic
  /// camera (killed, crashed, timed out — it could not close the device), records the device's
  /// release now, as the kernel releases a real camera when its holder exits, so the next run
  /// sees the device as it really is (warm for its warm window). A V4L2 camera's state is the
  /// kernel's own, and an app that closed the device recorded its release itself: nothing is
  /// recorded then. Returns whether a release was recorded.
  func recordDeviceRelease() -> Bool {
    (try? SyntheticCamera.recordRelease(stateDirectory: deviceStateDirectory, atNs: MonotonicClock.now()))
      ?? false
  }
}
