import DisplayServers
import LaunchContract
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

  /// What the probe watched in a run with no live frame (issue 40 item 5): the app's window
  /// (its id, size and owner, from the last `display.probe_region` that names one, else
  /// `display.window_mapped`) or what the probe read instead, and
  /// what it read there since the launch (`ProbeWatch`), with what that suggests — "; the probe
  /// watched window 0x2a00004 (320×240, owned by pid 4242): 412 images read since the launch
  /// (160×120): all blank, none changed from the one before — the window stayed blank".
  func watchHint(_ app: LaunchedApp, since: UInt64) -> String {
    let report = app.monitor.snapshot()
    let watch = report.watch
    let what: String
    // The window the probe moved to last (a larger one of the app's, or on Wayland the region
    // sway placed it in), else the app's first.
    let moved = report.events.last {
      $0.name == EventName.displayProbeRegion.rawValue && !($0.fields["window"]?.description ?? "").isEmpty
    }
    if let mapped = moved
      ?? report.events.first(where: { $0.name == EventName.displayWindowMapped.rawValue }),
      let window = mapped.fields["window"]
    {
      let fields = mapped.fields
      let size = fields["width"].flatMap { w in fields["height"].map { "\(w)×\($0)" } }
      let owner = fields["owner_pid"].map { ", owned by pid \($0)" } ?? ""
      what = "the probe watched window \(window)\(size.map { " (\($0)\(owner))" } ?? "")"
    } else {
      what =
        display.path.server.mapsWindows
        ? "the probe read \(display.name ?? "the display") (no window of the app found)"
        : "the probe read the app's surface"
    }
    let verdict: String
    if watch.reads == 0 {
      verdict = "it read nothing"
    } else if watch.blank == watch.reads {
      verdict = "it stayed blank: nothing was drawn there"
    } else if watch.changes == 0 {
      verdict = "one still picture: nothing live"
    } else if watch.changes <= 2 {
      verdict = "a still picture after \(watch.changes == 1 ? "one change" : "two changes"): nothing live"
    } else {
      verdict = "it changed, but never as a live feed (no light board, no changes at the camera's cadence)"
    }
    let stopped = app.monitor.failure.map { "; the probe stopped reading: \($0)" } ?? ""
    return "; \(what): \(watch.summary(since: since)) — \(verdict)\(stopped)"
  }
}
