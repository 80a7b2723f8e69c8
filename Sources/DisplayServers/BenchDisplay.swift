import CommandLineKit
import LaunchContract
import Probe
import ResultsSchema
import Subprocess

/// The display a benchmark (or a calibration) runs on, set up once for all of its runs
/// (`--display`): the `DisplayServer` of the path's kind — nothing to set up for `shm` (each run
/// gets its own surface); a private Xvfb for `x11`; an existing X server, checked, for `x11:NAME`.
package final class BenchDisplay: Sendable {
  /// The display servers bench runs benchmarks on, one implementation per kind; a new server is
  /// one more entry (and one more `DisplayServerKind`).
  package static let servers: [any DisplayServer.Type] = [
    SharedMemoryServer.self, X11Server.self, WaylandServer.self,
  ]

  /// The path.
  package let path: DisplayPath
  /// The server.
  package let server: any DisplayServer

  /// The shared-memory path.
  package static let sharedMemory = BenchDisplay(path: .sharedMemory, server: SharedMemoryServer())

  private init(path: DisplayPath, server: any DisplayServer) {
    self.path = path
    self.server = server
  }

  /// The implementation of `kind` in `servers`.
  static func serverType(_ kind: DisplayServerKind) -> any DisplayServer.Type {
    guard let type = servers.first(where: { $0.kind == kind }) else {
      fatalError("BenchDisplay.servers has no implementation of the display server '\(kind)'")
    }
    return type
  }

  /// Checks, while the command line is read, what `path` needs: for `x11`, the XCB libraries
  /// and Xvfb; for `x11:NAME`, the libraries and a server there that the probe can use (DAMAGE).
  /// - Throws: `UsageError`, one line naming the package to install or the display that did not answer.
  package static func validate(_ path: DisplayPath) throws(UsageError) {
    try serverType(path.server).validate(path)
  }

  /// Sets up `path` for a benchmark whose preview is `width`×`height` at `refreshHz`: starts a
  /// private server (a private Xvfb logs to `xvfb.log` in `logFolder`, when given; a private
  /// compositor to `sway.log` or `cage.log`), or connects once to the existing server to
  /// describe it.
  /// - Throws: `RunnerError` `.displayFailed` when the server cannot be started or reached.
  package static func open(
    _ path: DisplayPath, width: Int, height: Int, refreshHz: Double = 60, logFolder: String?
  ) throws(RunnerError) -> BenchDisplay {
    BenchDisplay(
      path: path,
      server: try serverType(path.server).open(
        path, width: width, height: height, refreshHz: refreshHz, logFolder: logFolder))
  }

  /// The name an app reaches the display server by (`:1` on X11); nil on shared memory.
  package var name: String? { server.name }

  /// The display server, for results (nil on shared memory).
  package var serverInfo: BenchResults.DisplayServerInfo? { server.info }

  /// Why the display is gone (the private Xvfb exited), or nil.
  package var failure: String? { server.failure }

  /// `environment` with what a client launched on this display needs: `DISPLAY`, and
  /// `XAUTHORITY` for the private Xvfb. Unchanged on the shared-memory path.
  package func clientEnvironment(_ environment: [String: String]) -> [String: String] {
    server.clientEnvironment(environment)
  }

  /// The display server's pid, for its thread states: the private Xvfb's, or for `x11:NAME` the
  /// pid a local display's lock file names while that process lives; nil on the shared-memory
  /// path and for a remote or unlocked display.
  package var serverPID: Int32? { server.pid }

  /// A fresh probe for one launch (see ``DisplayServer/makeMonitor(_:detector:)``).
  package func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor
  {
    try server.makeMonitor(request, detector: detector)
  }

  /// Opens a private server to an app that runs as user `uid`, group `gid`
  /// (``DisplayServer/grant(toAppUser:group:)``).
  /// - Throws: `RunnerError` `.displayFailed` naming what could not be granted.
  package func grant(toAppUser uid: UInt32, group gid: UInt32) throws(RunnerError) {
    try server.grant(toAppUser: uid, group: gid)
  }

  /// Stops a private server (and removes what it left). Safe to call more than once.
  package func stop() { server.stop() }
}
