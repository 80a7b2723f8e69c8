import CommandLineKit
import LaunchContract
import Probe
import ResultsSchema
import Subprocess

/// One display server as bench sees it: bench's side of the display-server seam. A server is
/// checked while the command line is read, set up once for a benchmark (started, or reached),
/// tells the app how to reach it (its environment), gives each run a probe on it, and is
/// stopped at the end. ``BenchDisplay/servers`` lists the implementations, one per
/// `DisplayServerKind`.
package protocol DisplayServer: Sendable {
  /// The kind of server this implements.
  static var kind: DisplayServerKind { get }

  /// Checks, while the command line is read, what `path` needs (libraries, the server's
  /// program, a server that answers).
  /// - Throws: `UsageError`, one line naming the package to install or the display that did not answer.
  static func validate(_ path: DisplayPath) throws(UsageError)

  /// Sets up `path` for a benchmark whose preview is `width`×`height` at `refreshHz`: starts a
  /// private server (its log in `logFolder`, when given) or reaches an existing one to describe
  /// it. A server without a refresh of its own (Xvfb) ignores `refreshHz`.
  /// - Throws: `RunnerError` `.displayFailed` when the server cannot be started or reached.
  static func open(_ path: DisplayPath, width: Int, height: Int, refreshHz: Double, logFolder: String?)
    throws(RunnerError) -> Self

  /// The name clients reach the server by (`:1` on X11), nil where there is none (shared memory).
  var name: String? { get }
  /// The server, for results (`settings.display_server`); nil on shared memory.
  var info: BenchResults.DisplayServerInfo? { get }
  /// Why the server is gone (a private server exited), or nil.
  var failure: String? { get }
  /// The server's pid, for its thread states; nil when bench cannot know it.
  var pid: Int32? { get }

  /// `environment` with what a client launched on this server needs (`DISPLAY`, `XAUTHORITY`).
  func clientEnvironment(_ environment: [String: String]) -> [String: String]

  /// A fresh probe for one launch, with `detector`, as `request` asks: the probe's side of the
  /// seam (`DisplayMonitor` over the server's `FrameSource`).
  /// - Throws: `RunnerError` `.displayFailed` when the probe cannot watch the display.
  func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor

  /// Opens the server to an app that runs as user `uid`, group `gid` (`--app-user`; called for
  /// bench's own user too): what that user needs to connect and nothing more. Nothing to do for
  /// a server every user reaches already (shared memory: the app inherits its surface), nor,
  /// mostly, for bench's own user (but sway's Xwayland lets in sway's user only).
  /// - Throws: `RunnerError` `.displayFailed` naming what could not be granted.
  func grant(toAppUser uid: UInt32, group gid: UInt32) throws(RunnerError)

  /// Stops a private server and removes what it left. Safe to call more than once.
  func stop()
}

extension DisplayServer {
  /// Nothing to grant (shared memory; an existing server, which is the user's to open).
  package func grant(toAppUser uid: UInt32, group gid: UInt32) throws(RunnerError) {}
}
