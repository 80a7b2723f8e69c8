import CommandLineKit
import CompositorIPC
import Foundation
import LaunchContract
import Probe
import ResultsSchema
import Subprocess
import SystemCalls

/// A Wayland compositor for a benchmark: bench's side of the display-server seam for Wayland
/// (issue 36). `wayland` (sway) and `wayland-cage` start a private headless compositor
/// (``WaylandCompositor``) and stop it after the benchmark; `wayland:SOCKET` reaches a running
/// compositor, checked once, read only.
///
/// The probe reads the compositor's output with wlr-screencopy (`WaylandFrameSource`);
/// ``validate(_:)`` checks what a path needs (the compositor's package, a socket that answers).
package struct WaylandServer: DisplayServer {
  package static var kind: DisplayServerKind { .wayland }

  /// The compositors `--display wayland` (sway) and `--display wayland-cage` start, by program
  /// name.
  package static let compositors = WaylandCompositorKind.allCases.map(\.program)

  /// The private compositor (`wayland`, `wayland-cage`); nil for a running one.
  package let compositor: WaylandCompositor?
  /// The Wayland socket's absolute path.
  package let socketPath: String
  /// The runtime folder clients get as `XDG_RUNTIME_DIR` (the private compositor's, or the
  /// socket's folder).
  package let runtimeFolder: String
  /// sway's IPC socket (the private sway's, or `SWAYSOCK` for a running one); nil for cage or
  /// a compositor without one.
  package let ipcSocketPath: String?
  /// The compositor, for results.
  package let serverInfo: BenchResults.DisplayServerInfo

  /// The path of `program` on `PATH`, or nil.
  package static func locate(_ program: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    where FileSystem.isExecutable(atPath: "\(dir)/\(program)") {
      return "\(dir)/\(program)"
    }
    return nil
  }

  /// The absolute path `wayland:SOCKET` names: itself when absolute, else in `XDG_RUNTIME_DIR`;
  /// nil when a name has no `XDG_RUNTIME_DIR` to be in.
  package static func socketPath(_ socket: String, environment: [String: String]) -> String? {
    if socket.hasPrefix("/") { return socket }
    guard let folder = environment["XDG_RUNTIME_DIR"], !folder.isEmpty else { return nil }
    return folder + "/" + socket
  }

  /// Checks, for `wayland`/`wayland-cage`, that the compositor (and setpriv, when bench is root)
  /// is installed; for `wayland:SOCKET`, that a compositor answers there.
  /// - Throws: `UsageError`, one line naming the package to install or the socket that did not
  ///   answer.
  package static func validate(_ path: DisplayPath) throws(UsageError) {
    switch path {
    case .privateWayland(let kind, let xwayland):
      guard locate(kind.program) != nil else { throw UsageError(WaylandCompositor.missingMessage(kind)) }
      guard !xwayland || locate("Xwayland") != nil else {
        throw UsageError(
          "--display \(path) needs Xwayland: install the package xwayland (apt-get install xwayland)")
      }
      guard geteuid() != 0 || FileSystem.isExecutable(atPath: WaylandCompositor.setpriv) else {
        throw UsageError(
          "--display \(path) as root needs \(WaylandCompositor.setpriv) (\(kind.program) refuses to run as root): install the package util-linux"
        )
      }
    case .wayland(let socket):
      _ = try reach(socket, path: path)
    default: throw UsageError("--display \(path) is not a Wayland path")
    }
  }

  /// The socket `wayland:SOCKET` names, once it accepted a connection.
  /// - Throws: `UsageError` when there is no such socket or nobody answers there.
  static func reach(_ socket: String, path: DisplayPath) throws(UsageError) -> String {
    guard let absolute = socketPath(socket, environment: ProcessInfo.processInfo.environment) else {
      throw UsageError(
        "--display \(path): XDG_RUNTIME_DIR is not set, so the socket name \(socket) names nothing")
    }
    do {
      FileDescriptorIO.close(try UnixSocket.connect(path: absolute))
    } catch {
      throw UsageError("--display \(path): no Wayland compositor answers at \(absolute) (\(error.message))")
    }
    return absolute
  }

  /// Starts the private compositor (its output in `logFolder`/`sway.log` or `cage.log`) with
  /// one output of `width`×`height` at `refreshHz`, or reaches the running one.
  package static func open(
    _ path: DisplayPath, width: Int, height: Int, refreshHz: Double, logFolder: String?
  ) throws(RunnerError) -> WaylandServer {
    switch path {
    case .privateWayland(let kind, let xwayland):
      let compositor = try WaylandCompositor(
        kind, width: width, height: height, refreshHz: refreshHz, xwayland: xwayland,
        logPath: logFolder.map { "\($0)/\(kind.program).log" })
      let o = compositor.output
      var info = BenchResults.DisplayServerInfo(
        name: compositor.socketPath, vendor: "\(kind.program) \(compositor.version)", release: 0,
        started: true,
        screen: "\(o.width)x\(o.height)@\(WaylandCompositor.hertz(Double(o.refreshMillihertz) / 1000))Hz",
        realtime: nil, sharedMemory: true)
      info.xwayland = compositor.xwaylandDisplay
      return WaylandServer(
        compositor: compositor, socketPath: compositor.socketPath, runtimeFolder: compositor.runtimeFolder,
        ipcSocketPath: compositor.ipcSocketPath, serverInfo: info)
    case .wayland(let socket):
      let absolute: String
      do {
        absolute = try reach(socket, path: path)
      } catch {
        throw RunnerError(.displayFailed, error.message)
      }
      let environment = ProcessInfo.processInfo.environment
      let ipc = environment["SWAYSOCK"].flatMap { $0.isEmpty ? nil : $0 }
      let vendor = ipc.flatMap { try? SwayIPC(path: $0) }.flatMap { connection in
        defer { connection.close() }
        return (try? connection.version(until: MonotonicClock.now() &+ 2_000_000_000)).map { "sway " + $0 }
      }
      let info = BenchResults.DisplayServerInfo(
        name: absolute, vendor: vendor ?? "Wayland compositor", release: 0, started: false, screen: nil,
        realtime: nil, sharedMemory: true)
      let folder = String(absolute[..<(absolute.lastIndex(of: "/") ?? absolute.startIndex)])
      return WaylandServer(
        compositor: nil, socketPath: absolute, runtimeFolder: folder.isEmpty ? "/" : folder,
        ipcSocketPath: vendor == nil ? nil : ipc, serverInfo: info)
    default:
      throw RunnerError(.displayFailed, "--display \(path) is not a Wayland path")
    }
  }

  /// The private compositor's output (size and refresh, read back), for the probe and the
  /// calibration bound; nil for a running compositor.
  package var output: WaylandCompositor.Output? { compositor?.output }

  package var name: String? { socketPath }
  package var info: BenchResults.DisplayServerInfo? { serverInfo }
  /// Why the private compositor exited, or nil.
  package var failure: String? { compositor?.exitReason }
  /// The private compositor's pid; nil for a running one.
  package var pid: Int32? { compositor?.pid }

  /// `environment` with `WAYLAND_DISPLAY` (the socket's absolute path), `XDG_RUNTIME_DIR` and
  /// `FIRSTFRAME_DISPLAY` (`wayland:/PATH`), and `DISPLAY` only for the private sway's Xwayland
  /// (`wayland+xwayland`; elsewhere an app that finds an X server may present there instead).
  package func clientEnvironment(_ environment: [String: String]) -> [String: String] {
    var env = environment
    env["WAYLAND_DISPLAY"] = socketPath
    env["XDG_RUNTIME_DIR"] = runtimeFolder
    env[LaunchEnvironment.Key.display.rawValue] = DisplayTarget.wayland(socket: socketPath).description
    env["DISPLAY"] = compositor?.xwaylandDisplay
    env["XAUTHORITY"] = compositor?.xwaylandDisplay == nil ? env["XAUTHORITY"] : nil
    return env
  }

  /// The probe's Wayland client on this compositor (wlr-screencopy with damage,
  /// `WaylandFrameSource`), with sway's IPC as its window watcher where there is one: the
  /// first window a process of the app owns becomes `display.window_mapped`.
  /// - Throws: `RunnerError` `.displayFailed` when the compositor is gone or offers no screencopy.
  package func makeMonitor(_ request: ProbeRequest, detector: DetectorConfiguration) throws(RunnerError)
    -> DisplayMonitor
  {
    if let failure { throw RunnerError(.displayFailed, failure) }
    do {
      return try DisplayMonitor(
        waylandSocket: socketPath, windows: windowWatcher(),
        configuration: detector)
    } catch {
      throw RunnerError(
        .displayFailed, failure ?? "the probe cannot read the Wayland compositor: \(error.message)")
    }
  }

  /// A watcher of the compositor's windows for the probe: sway's IPC where there is one, else nil
  /// (cage, a compositor without sway's IPC: no `display.window_mapped`).
  package func windowWatcher() -> (any WaylandWindowWatcher)? {
    ipcSocketPath.map { SwayWindowWatcher(ipcSocket: $0) }
  }

  /// Stops the private compositor and removes its runtime folder. Safe to call more than once.
  package func stop() { compositor?.stop() }

  /// The private compositor: it runs as `nobody` in a runtime folder of nobody's; an app user
  /// other than nobody gets that folder and the socket through the user's own group (the
  /// folder passable, mode 0710; the socket 0770), the owner left nobody. A running compositor
  /// is the user's to open. Xwayland (`wayland+xwayland`) lets in its own user only: another app
  /// user is let in by name (``WaylandCompositor/letIntoXwayland(_:appUser:compositorUser:deadline:)``).
  package func grant(toAppUser uid: UInt32, group gid: UInt32) throws(RunnerError) {
    guard let compositor, let owner = compositor.runsAs, owner != uid else { return }
    if let display = compositor.xwaylandDisplay {
      try WaylandCompositor.letIntoXwayland(display, appUser: uid, compositorUser: owner)
    }
    guard uid != geteuid() else { return }  // bench's own user reaches the folder as it is
    do {
      for (path, mode) in [(runtimeFolder, mode_t(0o710)), (socketPath, mode_t(0o770))] {
        try FileSystem.changeOwner(atPath: path, uid: UInt32.max, gid: gid)
        try FileSystem.setMode(atPath: path, mode)
      }
    } catch {
      throw RunnerError(
        .displayFailed, "cannot open the compositor's socket \(socketPath) to the app user: \(error.message)",
        errno: error)
    }
  }
}
