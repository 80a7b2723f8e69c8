#if canImport(Glibc)
  import Glibc
#endif
import CommandLineKit
import LaunchContract
import Probe
import ResultsSchema
import Subprocess
import SystemCalls
import X11Display

/// An X server for a benchmark: a private Xvfb that bench starts (`x11`) and stops after it, or
/// an existing server (`x11:NAME`), checked and described once.
package struct X11Server: DisplayServer {
  package static var kind: DisplayServerKind { .x11 }

  /// The private Xvfb (`x11`); nil for an existing server.
  package let xvfb: XvfbServer?
  /// The X display name (`:1`).
  package let displayName: String
  /// What the probe shows the private Xvfb; nil for an existing server (XCB reads `$XAUTHORITY`).
  package let authorization: X11Authorization?
  /// The X server, for results.
  package let serverInfo: BenchResults.DisplayServerInfo

  /// Checks, for `x11`, the XCB libraries and Xvfb; for `x11:NAME`, the libraries and a server
  /// there that the probe can use (DAMAGE).
  package static func validate(_ path: DisplayPath) throws(UsageError) {
    switch path {
    case .x11(let name):
      do {
        try X11WindowCapture(display: name).close()
      } catch {
        throw UsageError("--display \(path): \(error.message)")
      }
    default:
      do {
        try X11Library.load(X11Library.probing)
      } catch {
        throw UsageError("--display x11: \(error.message)")
      }
      guard XvfbServer.locate() != nil else { throw UsageError(XvfbServer.missingMessage) }
    }
  }

  /// Starts the private Xvfb (its output in `logFolder`/xvfb.log), or connects once to the
  /// existing server to describe it. Xvfb has no refresh: `refreshHz` is not used.
  package static func open(
    _ path: DisplayPath, width: Int, height: Int, refreshHz: Double = 60, logFolder: String?
  ) throws(RunnerError) -> X11Server {
    guard case .x11(let name) = path else {
      // A screen with room for the preview and for the cost benchmark's 1280×720 window.
      let server = try XvfbServer(
        width: max(width, 1280), height: max(height, 720), logPath: logFolder.map { $0 + "/xvfb.log" })
      do {
        let info = try describe(server.displayName, server.authorization, server: server)
        return X11Server(
          xvfb: server, displayName: server.displayName, authorization: server.authorization, serverInfo: info
        )
      } catch {
        server.stop()
        throw error
      }
    }
    let info = try describe(name, nil, server: nil)
    return X11Server(xvfb: nil, displayName: name, authorization: nil, serverInfo: info)
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

  package var name: String? { displayName }
  package var info: BenchResults.DisplayServerInfo? { serverInfo }
  /// Why the private Xvfb exited, or nil.
  package var failure: String? { xvfb?.exitReason }

  /// The private Xvfb's pid, or for `x11:NAME` the pid a local display's lock file
  /// (`/tmp/.X<N>-lock`) names while that process lives; nil for a remote or unlocked display.
  package var pid: Int32? { xvfb?.pid ?? Self.lockedPID(display: displayName) }

  /// `environment` with `DISPLAY`, and `XAUTHORITY` for the private Xvfb.
  package func clientEnvironment(_ environment: [String: String]) -> [String: String] {
    var env = environment
    env["DISPLAY"] = displayName
    if let xvfb { env["XAUTHORITY"] = xvfb.authorityFile }
    return env
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
  package func stop() { xvfb?.stop() }

  /// The private Xvfb: its Xauthority file becomes the app user's (the folder that holds it is
  /// made passable, not listable: mode 0711); its socket is open to every local user already,
  /// the cookie is what admits a client. An existing server is the user's to open.
  package func grant(toAppUser uid: UInt32, group gid: UInt32) throws(RunnerError) {
    guard let file = xvfb?.authorityFile, uid != geteuid() else { return }
    let folder = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
    do {
      try FileSystem.setMode(atPath: folder, 0o711)
      try FileSystem.changeOwner(atPath: file, uid: uid, gid: gid)
    } catch {
      throw RunnerError(
        .displayFailed, "cannot hand Xvfb's authorization \(file) to the app user: \(error.message)",
        errno: error)
    }
  }
}
