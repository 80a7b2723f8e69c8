import CommandLineKit
import Foundation
import LaunchContract
import Probe
import ResultsSchema
import Subprocess
import SystemCalls

/// A Wayland compositor for a benchmark (`--display wayland`, `wayland:SOCKET`): bench's side
/// of the display-server seam for Wayland (issue 36).
///
/// Not measurable yet: the probe that reads the compositor (wlr-screencopy with damage) needs
/// the `WaylandClient` module, which is not in this build, so ``validate(_:)`` refuses every
/// Wayland path with one line (exit status 2) instead of starting a compositor no run can
/// watch. Until then this type keeps `BenchDisplay.servers` one entry per `DisplayServerKind`.
package struct WaylandServer: DisplayServer {
  package static var kind: DisplayServerKind { .wayland }

  /// The one line for every Wayland path until the probe can read a compositor.
  package static let unavailableMessage =
    "--display wayland: not measurable in this build yet (the screencopy probe is issue 36's next step)"

  /// The compositors `--display wayland` is to start (sway by default, cage for kiosk
  /// products), by program name.
  package static let compositors = ["sway", "cage"]

  /// The path of `program` on `PATH`, or nil.
  package static func locate(_ program: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    where FileSystem.isExecutable(atPath: "\(dir)/\(program)") {
      return "\(dir)/\(program)"
    }
    return nil
  }

  /// Refuses every Wayland path (see the type's comment).
  /// - Throws: `UsageError`, one line.
  package static func validate(_ path: DisplayPath) throws(UsageError) {
    throw UsageError(unavailableMessage)
  }

  /// Fails: nothing is started while the probe cannot read the compositor.
  /// - Throws: `RunnerError` `.displayFailed`, always.
  package static func open(_ path: DisplayPath, width: Int, height: Int, logFolder: String?)
    throws(RunnerError) -> WaylandServer
  {
    throw RunnerError(.displayFailed, unavailableMessage)
  }

  package var name: String? { nil }
  package var info: BenchResults.DisplayServerInfo? { nil }
  package var failure: String? { nil }
  package var pid: Int32? { nil }

  package func clientEnvironment(_ environment: [String: String]) -> [String: String] { environment }

  /// Fails: there is no Wayland probe in this build.
  /// - Throws: `RunnerError` `.displayFailed`, always.
  package func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor
  {
    throw RunnerError(.displayFailed, Self.unavailableMessage)
  }

  package func stop() {}
}
