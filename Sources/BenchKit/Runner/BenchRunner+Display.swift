import DisplayServers
import Probe
import Subprocess
import SystemCalls

extension BenchRunner {
  /// A fresh display and probe for one launch: a shared-memory surface with its compositor, or
  /// the probe's X client on the benchmark's X server (which then waits for the app's window).
  func makeMonitor() throws(RunnerError) -> DisplayMonitor {
    var detector = DetectorConfiguration()
    detector.decodesLightBoard = settings.readsLightBoard
    return try display.makeMonitor(settings.probeRequest, detector: detector)
  }

  /// Why the run cannot go on because its display is gone — the private Xvfb exited, or the
  /// probe's connection broke — or nil. When the probe lost its connection or the app has just
  /// ended, the server's own exit (which its owner thread learns a moment later) is waited for
  /// briefly (up to 200 ms), so that the run fails for the cause, not a symptom.
  func displayFailure(_ app: LaunchedApp, afterAppEnded: Bool = false) -> String? {
    guard display.path.server.runsApart else { return nil }
    if let reason = display.failure { return reason }
    let probeLost = app.monitor.failure
    guard probeLost != nil || afterAppEnded else { return nil }
    _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ 200_000_000, slice: 5_000_000) {
      display.failure != nil
    }
    return display.failure ?? probeLost
  }

  /// "; no window of the app was mapped on :1" when the display maps windows and the probe never
  /// found the app's (an app that draws nowhere, or on another display), for a run that saw no
  /// live frame.
  func windowHint(_ app: LaunchedApp) -> String {
    guard display.path.server.mapsWindows, let name = display.name, !app.monitor.snapshot().windowMapped
    else { return "" }
    return "; no window of the app was mapped on \(name)"
  }
}
