import Probe
import Subprocess
import SystemCalls
import X11Display

extension X11Server {
  /// The probe's X client on this server, which then waits for the app's window; it reads the
  /// window or the screen as `request.x11Read` says.
  package func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor
  {
    // A server that is up but did not take the connection this once (a busy Xvfb under load or
    // emulation) is asked again before the run fails: nothing has been launched yet, so a retry
    // changes no measurement. A server that is gone fails the run at once.
    do {
      return try Self.retryingConnection(serverGone: { failure != nil }) { () throws(X11Error) in
        try DisplayMonitor(
          x11Display: displayName, authorization: authorization, source: request.x11Read,
          configuration: detector)
      }
    } catch {
      throw RunnerError(
        .displayFailed,
        failure
          ?? "the probe cannot watch the X display \(displayName)\(error.attempts > 1 ? " (\(error.attempts) attempts)" : ""): \(error.error.message)",
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
}
