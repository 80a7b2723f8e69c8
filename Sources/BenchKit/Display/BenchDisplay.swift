import CommandLineKit
import Foundation
import LaunchContract
import ResultsSchema
import Subprocess
import SystemCalls
import X11Display

/// The display a benchmark (or a calibration) runs on, set up once for all of its runs
/// (`--display`): nothing to set up for `shm` (each run gets its own surface); a private Xvfb for
/// `x11`; an existing X server, checked, for `x11:NAME`.
package final class BenchDisplay: Sendable {
  /// The path.
  package let path: DisplayPath
  /// The private Xvfb (`x11`).
  package let server: XvfbServer?
  /// The X display name (`:1`) on the X11 paths.
  package let x11Name: String?
  /// What the probe shows the private Xvfb; nil for an existing server (XCB reads `$XAUTHORITY`).
  package let authorization: X11Authorization?
  /// The X server, for results (X11 paths).
  package let serverInfo: BenchResults.DisplayServerInfo?

  /// The shared-memory path.
  package static let sharedMemory = BenchDisplay(path: .sharedMemory, server: nil, x11Name: nil, info: nil)

  private init(
    path: DisplayPath, server: XvfbServer?, x11Name: String?, info: BenchResults.DisplayServerInfo?
  ) {
    self.path = path
    self.server = server
    self.x11Name = x11Name
    self.authorization = server?.authorization
    self.serverInfo = info
  }

  /// Checks, while the command line is read, what `path` needs: for `x11`, the XCB libraries
  /// and Xvfb; for `x11:NAME`, the libraries and a server there that the probe can use (DAMAGE).
  /// - Throws: `UsageError`, one line naming the package to install or the display that did not answer.
  package static func validate(_ path: DisplayPath) throws(UsageError) {
    switch path {
    case .sharedMemory: return
    case .privateX11:
      do {
        try X11Library.load(X11Library.probing)
      } catch {
        throw UsageError("--display x11: \(error.message)")
      }
      guard XvfbServer.locate() != nil else { throw UsageError(XvfbServer.missingMessage) }
    case .x11(let name):
      do {
        try X11WindowCapture(display: name).close()
      } catch {
        throw UsageError("--display \(path): \(error.message)")
      }
    }
  }

  /// Sets up `path` for a benchmark whose preview is `width`×`height`: starts the private Xvfb
  /// (its output in `logPath`), or connects once to the existing server to describe it.
  /// - Throws: `RunnerError` `.displayFailed` when the server cannot be started or reached.
  package static func open(_ path: DisplayPath, width: Int, height: Int, logPath: String?) throws(RunnerError)
    -> BenchDisplay
  {
    switch path {
    case .sharedMemory: return .sharedMemory
    case .privateX11:
      // A screen with room for the preview and for the cost benchmark's 1280×720 window.
      let server = try XvfbServer(width: max(width, 1280), height: max(height, 720), logPath: logPath)
      do {
        let info = try describe(server.displayName, server.authorization, server: server)
        return BenchDisplay(path: path, server: server, x11Name: server.displayName, info: info)
      } catch {
        server.stop()
        throw error
      }
    case .x11(let name):
      let info = try describe(name, nil, server: nil)
      return BenchDisplay(path: path, server: nil, x11Name: name, info: info)
    }
  }

  private static func describe(_ name: String, _ authorization: X11Authorization?, server: XvfbServer?)
    throws(RunnerError) -> BenchResults.DisplayServerInfo
  {
    do {
      let capture = try X11WindowCapture(display: name, authorization: authorization)
      defer { capture.close() }
      let setup = capture.connection.setup
      return BenchResults.DisplayServerInfo(
        name: name, vendor: setup.vendor, release: Int(setup.releaseNumber), started: server != nil,
        screen: server?.screen, realtime: server?.realtimeGranted, sharedMemory: capture.usesSharedMemory)
    } catch {
      throw RunnerError(.displayFailed, error.message)
    }
  }

  /// Why the display is gone (the private Xvfb exited), or nil.
  package var failure: String? { server?.exitReason }

  /// `environment` with what an X client launched on this display needs: `DISPLAY`, and
  /// `XAUTHORITY` for the private Xvfb. Unchanged on the shared-memory path.
  package func clientEnvironment(_ environment: [String: String]) -> [String: String] {
    guard let x11Name else { return environment }
    var env = environment
    env["DISPLAY"] = x11Name
    if let server { env["XAUTHORITY"] = server.authorityFile }
    return env
  }

  /// The X server's pid, for its thread states: the private Xvfb's, or for `x11:NAME` the pid a
  /// local display's lock file (`/tmp/.X<N>-lock`) names while that process lives; nil on the
  /// shared-memory path and for a remote or unlocked display.
  package var serverPID: Int32? {
    if let server { return server.pid }
    guard let x11Name else { return nil }
    return Self.lockedPID(display: x11Name)
  }

  /// The pid `/tmp/.X<N>-lock` names for the local display `name` (`:N` or `:N.S`), when that
  /// process is alive; nil for a remote name (`host:N`) or no lock.
  static func lockedPID(display name: String, lockFolder: String = "/tmp") -> Int32? {
    guard name.hasPrefix(":"), let number = Int(name.dropFirst().prefix { $0 != "." }),
      let text = FileSystem.readText(atPath: "\(lockFolder)/.X\(number)-lock", maxBytes: 64),
      let pid = Int32(text.filter { !$0.isWhitespace }), pid > 0, ProcessControl.isAlive(pid)
    else { return nil }
    return pid
  }

  /// Stops the private Xvfb (and removes what it left). Safe to call more than once.
  package func stop() { server?.stop() }
}
