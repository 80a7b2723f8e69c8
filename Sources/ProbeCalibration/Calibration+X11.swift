import Probe
import SystemCalls
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

extension Calibration {
  /// The X11 path's lag bound: the probe must see a presented frame within this many ms at the
  /// 99th percentile (no refresh grid to wait for: the X round trip plus the probe's reaction).
  package static let x11LagBoundMilliseconds = 4.0

  /// How long a trial presents fresh frames (`CalibrationSettings.freshWindowNanoseconds`) on an
  /// X server that did not get real-time priority, ns: 2 s, four times the usual 500 ms. Such a
  /// server falls behind under load (issue 41 item 6: as an unprivileged user, beside two CPU
  /// burners, one 640×480 trial's 500 ms of fresh frames ended before the server had drawn one the
  /// probe could see), which says nothing about the probe; a miss still means that frames stayed
  /// on screen for seconds and the probe saw none. The lag bound is not stretched.
  package static let freshWindowWithoutRealtimeNanoseconds: UInt64 = 2_000_000_000

  /// Calibrates the X11 probe against ground truth on the X server `display` (nil: `$DISPLAY`):
  /// a real X client of this process (`X11Presenter`, its own connection) presents known frames
  /// at known times into a window; the probe (`DisplayMonitor(x11Display:)`, another connection)
  /// finds its window by `_NET_WM_PID` and watches it. Ground truth: the present times the
  /// presenter stamped before each image request, and the digest of each presented image (as
  /// read at the probe's scale, `X11WindowCapture.scale`), matched with the image the probe
  /// found the first live frame on.
  /// `serverRealtime` false (an Xvfb that asked for `SCHED_FIFO` and did not get it) stretches each
  /// trial's fresh frames to ``freshWindowWithoutRealtimeNanoseconds``.
  /// - Throws: `X11Error` when the libraries, the server or DAMAGE are missing, or the window
  ///   never appears.
  package static func runX11(
    _ settings: CalibrationSettings, display: String?, authorization: X11Authorization? = nil,
    serverRealtime: Bool = true
  ) throws(X11Error) -> CalibrationReport {
    let monitor = try DisplayMonitor(
      x11Display: display, authorization: authorization,
      configuration: DetectorConfiguration(
        cameraFrameIntervalNanoseconds: UInt64(1e9 / settings.cameraFrameRate),
        refreshIntervalNanoseconds: nil))
    defer { monitor.stop() }
    monitor.keepFirstLiveImages()
    monitor.watch(processID: getpid())
    let presenter = try X11Presenter(
      display: display, authorization: authorization, width: settings.width, height: settings.height,
      title: "FirstFrame calibration", pid: getpid())
    defer { presenter.close() }
    let deadline = MonotonicClock.now() &+ 5_000_000_000
    let timedOut = MonotonicClock.sleep(until: deadline, slice: 1_000_000) { monitor.snapshot().windowMapped }
    guard !timedOut else {
      throw X11Error(
        .requestFailed, "the probe did not find the calibration window on \(presenter.connection.displayName)"
      )
    }
    var x11Settings = settings
    if !serverRealtime {
      x11Settings.freshWindowNanoseconds = max(
        settings.freshWindowNanoseconds, freshWindowWithoutRealtimeNanoseconds)
    }
    // A large window is read at half size: the image the first live frame was found on is
    // matched with the presented frames as read at that scale.
    x11Settings.digestScale = monitor.x11ReadScale ?? 1
    var report = trials(
      x11Settings, monitor: monitor, presenter: presenter,
      display: "x11:" + presenter.connection.displayName, wakeupsPerLag: 3
    ) { firstFresh, presented in
      guard let image = monitor.firstLiveImage, let sequence = presented[ImageDigest.of(image.pixels)] else {
        return false
      }
      return sequence >= firstFresh
    }
    report.refreshHz = 0
    report.applyLagBound(path: x11LagBoundMilliseconds, host: report.hostWakeup)
    report.sharedMemoryImages = presenter.usesSharedMemory
    report.x11ReadScale = x11Settings.digestScale
    return report
  }
}
