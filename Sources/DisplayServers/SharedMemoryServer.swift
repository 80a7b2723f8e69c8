import CommandLineKit
import LaunchContract
import Probe
import ResultsSchema
import Subprocess

/// The shared-memory display: nothing to start or stop (each run's probe creates its own
/// surface, which the app inherits, and the compositor that scans it out).
package struct SharedMemoryServer: DisplayServer {
  package static var kind: DisplayServerKind { .sharedMemory }

  package static func validate(_ path: DisplayPath) throws(UsageError) {}

  package static func open(
    _ path: DisplayPath, width: Int, height: Int, refreshHz: Double, logFolder: String?
  )
    throws(RunnerError) -> SharedMemoryServer
  { SharedMemoryServer() }

  package var name: String? { nil }
  package var info: BenchResults.DisplayServerInfo? { nil }
  package var failure: String? { nil }
  package var pid: Int32? { nil }

  package func clientEnvironment(_ environment: [String: String]) -> [String: String] { environment }

  /// A fresh surface with its compositor at `request.refreshHz`.
  package func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor
  {
    do {
      return try DisplayMonitor(
        width: request.width, height: request.height, refreshHz: request.refreshHz,
        slots: 3, configuration: detector)
    } catch {
      throw RunnerError(.displayFailed, "cannot create the display surface: \(error)", errno: error.errno)
    }
  }

  package func stop() {}
}
