import Probe
import SystemCalls
import WaylandClient

#if canImport(Glibc)
  import Glibc
#endif

extension WaylandPresenter: CalibrationPresenter {}

extension Calibration {
  /// The Wayland path's own share of the lag bound beyond one refresh (2 ms): a compositor
  /// shows a commit at its next output frame, up to one refresh later, and the probe's copy
  /// comes back with the frame's presentation time; 2 ms is the screencopy's own way back.
  package static let waylandLagBeyondRefreshMilliseconds = 2.0

  /// Calibrates the Wayland probe against ground truth on the wlroots compositor at `socket`
  /// (absolute), whose output refreshes at `refreshHz`: a real Wayland client of this process
  /// (`WaylandPresenter`, its own connection) presents known frames at known times into a
  /// toplevel that fills the output; the probe (`DisplayMonitor(waylandSocket:)`, another
  /// connection) copies the output on every change. Ground truth: the present times the
  /// presenter stamped once the compositor had each commit, and the digest of each presented
  /// image (as read at the probe's scale), matched with the image the probe found the first
  /// live frame on. `windows` (sway's IPC), when given, must see the calibration window mapped
  /// first. The bound is one refresh + 2 ms + the host's wake-up allowance.
  /// - Throws: `WaylandError` when the compositor, screencopy or the window is missing.
  package static func runWayland(
    _ settings: CalibrationSettings, socket: String, refreshHz: Double, windows: (any WaylandWindowWatcher)?
  ) throws(WaylandError) -> CalibrationReport {
    let monitor = try DisplayMonitor(
      waylandSocket: socket, windows: windows,
      configuration: DetectorConfiguration(
        cameraFrameIntervalNanoseconds: UInt64(1e9 / settings.cameraFrameRate),
        refreshIntervalNanoseconds: UInt64(1e9 / refreshHz)))
    defer { monitor.stop() }
    monitor.keepFirstLiveImages()
    monitor.watch(processID: getpid())
    let presenter = try WaylandPresenter(
      socket: socket, width: settings.width, height: settings.height, title: "FirstFrame calibration",
      appID: "firstframe-calibration")
    defer { presenter.close() }
    // The window mapped (where sway's IPC says so) and the probe's first copy in hand: the
    // scale the probe reads at is known only then (the mapping frame, black, is a change).
    let deadline = MonotonicClock.now() &+ 5_000_000_000
    let timedOut = MonotonicClock.sleep(until: deadline, slice: 1_000_000) {
      (windows == nil || monitor.snapshot().windowMapped) && (monitor.waylandProbeThreadCost?.frames ?? 0) > 0
    }
    guard !timedOut else {
      throw WaylandError(.timedOut, "the probe did not see the calibration window on \(socket) within 5 s")
    }
    var waylandSettings = settings
    // The output is read at a reduced size: the image the first live frame was found on is
    // matched with the presented frames as read at that scale.
    waylandSettings.digestScale = monitor.waylandReadScale ?? 1
    var report = trials(
      waylandSettings, monitor: monitor, presenter: presenter, display: "wayland:" + socket, wakeupsPerLag: 3
    ) { firstFresh, presented in
      guard let image = monitor.firstLiveImage, let sequence = presented[ImageDigest.of(image.pixels)] else {
        return false
      }
      return sequence >= firstFresh
    }
    report.refreshHz = refreshHz
    report.applyLagBound(
      path: 1000 / refreshHz + waylandLagBeyondRefreshMilliseconds, host: report.hostWakeup)
    return report
  }
}
