import Probe
import Subprocess
import SystemCalls
import X11Display

extension BenchRunner {
  /// A fresh display and probe for one launch: a shared-memory surface with its compositor, or
  /// the probe's X client on the benchmark's X server (which then waits for the app's window).
  func makeMonitor() throws(RunnerError) -> DisplayMonitor {
    var detector = DetectorConfiguration()
    detector.decodesLightBoard = settings.readsLightBoard
    guard let name = display.x11Name else {
      do {
        return try DisplayMonitor(
          width: settings.displayWidth, height: settings.displayHeight, refreshHz: settings.refreshHz,
          slots: 3, configuration: detector)
      } catch {
        throw RunnerError(.displayFailed, "cannot create the display surface: \(error)", errno: error.errno)
      }
    }
    // A server that is up but did not take the connection this once (a busy Xvfb under load or
    // emulation) is asked again before the run fails: nothing has been launched yet, so a retry
    // changes no measurement. A server that is gone fails the run at once.
    do {
      return try Self.retryingConnection(serverGone: { display.failure != nil }) { () throws(X11Error) in
        try DisplayMonitor(
          x11Display: name, authorization: display.authorization, source: settings.x11Read,
          configuration: detector)
      }
    } catch {
      throw RunnerError(
        .displayFailed,
        display.failure
          ?? "the probe cannot watch the X display \(name)\(error.attempts > 1 ? " (\(error.attempts) attempts)" : ""): \(error.error.message)",
        errno: error.error.errno)
    }
  }

  /// How many times the probe tries to connect to a live X server for one run.
  static let probeConnectAttempts = 3

  /// A connection that failed after `attempts` tries, with the last try's error.
  struct ConnectFailure: Error {
    var error: X11Error
    var attempts: Int
  }

  /// `connect()`, tried up to `attempts` times while it fails with `.cannotConnect` and the
  /// server is not known to be gone, `pause × n` after the n-th failure.
  static func retryingConnection<T>(
    attempts: Int = probeConnectAttempts, pause: UInt64 = 100_000_000, serverGone: () -> Bool,
    _ connect: () throws(X11Error) -> T
  ) throws(ConnectFailure) -> T {
    var attempt = 0
    while true {
      do {
        return try connect()
      } catch {
        attempt += 1
        guard error.code == .cannotConnect, !serverGone(), attempt < attempts else {
          throw ConnectFailure(error: error, attempts: attempt)
        }
        MonotonicClock.sleep(nanoseconds: UInt64(attempt) * pause)
      }
    }
  }

  /// Why the run cannot go on because its display is gone — the private Xvfb exited, or the
  /// probe's connection broke — or nil. When the probe lost its connection or the app has just
  /// ended, the server's own exit (which its owner thread learns a moment later) is waited for
  /// briefly (up to 200 ms), so that the run fails for the cause, not a symptom.
  func displayFailure(_ app: LaunchedApp, afterAppEnded: Bool = false) -> String? {
    guard display.x11Name != nil else { return nil }
    if let reason = display.failure { return reason }
    let probeLost = app.monitor.failure
    guard probeLost != nil || afterAppEnded else { return nil }
    _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ 200_000_000, slice: 5_000_000) {
      display.failure != nil
    }
    return display.failure ?? probeLost
  }

  /// X11: "; no window of the app was mapped on :1" when the probe never found the app's window
  /// (an app that draws nowhere, or on another display), for a run that saw no live frame.
  func windowHint(_ app: LaunchedApp) -> String {
    guard let name = display.x11Name, !app.monitor.snapshot().windowMapped else { return "" }
    return "; no window of the app was mapped on \(name)"
  }
}
