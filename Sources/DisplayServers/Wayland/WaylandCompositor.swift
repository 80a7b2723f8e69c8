#if canImport(Glibc)
  import Glibc
#endif
import CompositorIPC
import Dispatch
import Foundation
import LaunchContract
import Subprocess
import SystemCalls

/// A private headless Wayland compositor for one benchmark (issue 36): sway 1.7 (a generated
/// configuration: one output `HEADLESS-1` at the size and refresh asked, no bar, no borders, no
/// gaps, so that the app's one window fills the output at (0, 0)) or cage 0.1.4 (the kiosk: its
/// one headless output is wlroots' 1280×720 at 60 Hz, which cage cannot change), on wlroots'
/// headless back end with the pixman renderer, in a runtime folder of its own
/// (`XDG_RUNTIME_DIR`: `/tmp/firstframe-wayland-<bench's claim token>-XXXXXX`, mode 0700).
///
/// **Not as root.** sway and cage refuse to run as root ("Unable to drop root"): when bench is
/// root, the compositor runs as `nobody` (`setpriv --reuid=65534 --regid=65534 --clear-groups`)
/// and its runtime folder is nobody's; bench and the app (root) reach its socket all the same.
///
/// **It never outlives bench.** A thread of its own starts it with a parent-death signal of
/// SIGKILL tied to that thread (setpriv sets it again after it drops root, which clears it),
/// and waits for it, so the kernel kills the compositor if bench is killed; ``stop(grace:)``
/// sends SIGTERM to its process group, then SIGKILL after a bounded grace (sway once ignored
/// SIGTERM for 41 minutes), waits for it and removes the folder. The guard (`ProcessGuard`)
/// kills its process group and removes the folder of a bench killed with SIGKILL (the
/// parent-death signal alone would miss a bench killed in the instant between setpriv dropping
/// root, which clears it, and setting it again); the next compositor's start, and bench's sweep
/// (`BenchLeftovers`), remove the folders whose claim is free and kill a compositor still
/// running in one (the pid in its `compositor.pid`, when that process's `XDG_RUNTIME_DIR` is
/// the folder).
///
/// **Ready** when its Wayland socket accepts a connection and, for sway, its IPC's
/// `GET_OUTPUTS` shows the output at the mode asked.
package final class WaylandCompositor: Sendable {
  /// The compositor.
  package let kind: WaylandCompositorKind
  /// Its runtime folder (`XDG_RUNTIME_DIR`).
  package let runtimeFolder: String
  /// Its Wayland socket's absolute path (`WAYLAND_DISPLAY` may name it so).
  package let socketPath: String
  /// sway's IPC socket (`SWAYSOCK`); nil for cage.
  package let ipcSocketPath: String?
  /// The compositor's pid (setpriv exec's it in place), also its process group.
  package let pid: pid_t
  /// The output as read back: sway's from `GET_OUTPUTS`; cage's is wlroots' default.
  package let output: Output
  /// The user it runs as when bench is root (`nobody`), nil when it runs as bench's user.
  package let runsAs: uid_t?
  /// From the spawn to ready, ns.
  package let startToReadyNanoseconds: UInt64
  /// The compositor's version (`1.7`; cage's from its package, `0.1.4`, when asked).
  package let version: String
  /// Xwayland's X display (`:1`) when sway was started with it (`wayland+xwayland`), else nil.
  package let xwaylandDisplay: String?
  /// Xwayland's pid (listed in `ProcessControl.ownOrphans` while the compositor runs), else nil.
  package let xwaylandProcessID: pid_t?

  private let owner: Owner
  private let stopped = PThreadMutex(false)

  /// The output's size and refresh.
  package struct Output: Sendable, Hashable {
    /// The output's name (`HEADLESS-1`).
    package var name: String
    /// Its width, pixels.
    package var width: Int
    /// Its height, pixels.
    package var height: Int
    /// Its refresh, mHz.
    package var refreshMillihertz: Int
  }

  /// What the owner thread tells the rest: the spawn's outcome, then how the compositor ended.
  final class Owner: Sendable {
    let spawned = PThreadMutex<Result<pid_t, Errno>?>(nil)
    let started = DispatchSemaphore(value: 0)
    let ended = PThreadMutex<ChildProcess.Termination?>(nil)
    let endedSignal = DispatchSemaphore(value: 0)
  }

  /// The prefix of every runtime folder's name in `/tmp`.
  package static let folderPrefix = "firstframe-wayland-"
  /// The file in the runtime folder that names the compositor's pid, for the sweep.
  static let pidFile = "compositor.pid"
  /// The uid and gid the compositor runs as when bench is root (`nobody`, `nogroup`).
  static let unprivileged: uid_t = 65534
  /// setpriv, which drops root for the compositor.
  static let setpriv = "/usr/bin/setpriv"
  /// wlroots' headless output when nobody sets a mode (cage).
  static let defaultOutput = Output(name: "HEADLESS-1", width: 1280, height: 720, refreshMillihertz: 60000)

  /// Why the compositor is gone ("the Wayland compositor (sway) exited: killed by signal SIGKILL"),
  /// or nil while it runs.
  package var exitReason: String? {
    owner.ended.withLock { $0 }.map { "the Wayland compositor (\(kind.program)) exited: \($0)" }
  }

  /// The one line for a machine without `kind`.
  package static func missingMessage(_ kind: WaylandCompositorKind) -> String {
    "--display \(DisplayPath.privateWayland(kind)) needs \(kind.program): install the package \(kind.program) (apt-get install \(kind.program))"
  }

  /// Starts `kind` headless with one output of `width`×`height` at `refreshHz` (sway; cage's is
  /// wlroots' default), its output in `logPath` (or /dev/null), and waits (up to `timeout`
  /// seconds) until it is ready; with `xwayland` (sway only), with Xwayland started with it and
  /// serving its display.
  /// - Throws: `RunnerError` `.displayFailed`: the compositor missing (the package to install),
  ///   or it exited, or was not ready in time (with the end of its log), or its output's mode is
  ///   not the one asked.
  package init(
    _ kind: WaylandCompositorKind, width: Int, height: Int, refreshHz: Double, xwayland: Bool = false,
    logPath: String? = nil, timeout: Double = 15
  ) throws(RunnerError) {
    precondition(!xwayland || kind == .sway, "bench starts Xwayland with sway only")
    guard let program = WaylandServer.locate(kind.program) else {
      throw RunnerError(.displayFailed, Self.missingMessage(kind))
    }
    let asNobody = geteuid() == 0
    let folder = try Self.prepareFolder(
      kind, width: width, height: height, refreshHz: refreshHz, xwayland: xwayland, asNobody: asNobody)
    let arguments = Self.arguments(kind, program: program, folder: folder, asNobody: asNobody)
    let owner = Owner()
    let began = MonotonicClock.now()
    do {
      try Self.startOwnerThread(
        owner, arguments: arguments, environment: Self.environment(kind, folder: folder),
        output: .appending(toPath: logPath ?? "/dev/null"))
    } catch {
      try? FileSystem.remove(atPath: folder)  // the thread's failure is the one to report
      throw error
    }
    owner.started.wait()
    let pid: pid_t
    switch owner.spawned.withLock({ $0 }) {
    case .success(let p): pid = p
    case .failure(let e):
      try? FileSystem.remove(atPath: folder)  // the spawn's failure is the one to report
      ProcessGuard.running?.keep(folder)
      throw RunnerError(.displayFailed, "cannot start \(arguments[0]): \(e.message)", errno: e)
    case nil: fatalError("the owner thread signals after recording the spawn")
    }
    // The guard kills its group if bench dies: the parent-death signal is lost when bench dies
    // in the instant setpriv has dropped root and not yet set it again.
    ProcessGuard.running?.watch(group: pid)
    try? FileSystem.replaceAtomically("\(pid)\n", atPath: folder + "/" + Self.pidFile)
    let ready: Readiness
    var xDisplay: String?
    var xPID: pid_t?
    do {
      let deadline = began &+ UInt64(timeout * 1e9)
      ready = try Self.waitUntilReady(
        kind, folder: folder, owner: owner, width: width, height: height, refreshHz: refreshHz,
        deadline: deadline)
      if xwayland {
        xDisplay = try Self.waitForXwayland(compositor: pid, owner: owner, deadline: deadline)
        // Re-parented to bench (a subreaper) by wlroots' double fork: bench's, not an app's escape.
        xPID = Self.xwaylandProcess(inGroup: pid)
        if let xPID { ProcessControl.ownOrphans.withLock { _ = $0.insert(xPID) } }
      }
    } catch {
      Self.kill(pid, owner: owner, grace: 0)
      if xwayland { Self.removeXwaylandFiles(of: pid) }
      ProcessGuard.running?.release(group: pid)
      try? FileSystem.remove(atPath: folder)  // the compositor's failure is the one to report
      ProcessGuard.running?.keep(folder)
      let tail =
        logPath.flatMap { FileSystem.readText(atPath: $0) }?
        .split(separator: "\n").suffix(3).joined(separator: " / ") ?? ""
      throw RunnerError(.displayFailed, error.message + (tail.isEmpty ? "" : " (\(tail))"))
    }
    self.kind = kind
    self.runtimeFolder = folder
    self.socketPath = ready.socket
    self.ipcSocketPath = ready.ipcSocket
    self.pid = pid
    self.output = ready.output
    self.runsAs = asNobody ? Self.unprivileged : nil
    self.startToReadyNanoseconds = MonotonicClock.now() &- began
    self.version = ready.version
    self.xwaylandDisplay = xDisplay
    self.xwaylandProcessID = xPID
    self.owner = owner
  }

  /// Makes the runtime folder (after sweeping the folders of benches that are gone), hands it
  /// to nobody when bench is root, and writes sway's configuration in it; asks the guard to
  /// remove it if bench dies.
  private static func prepareFolder(
    _ kind: WaylandCompositorKind, width: Int, height: Int, refreshHz: Double, xwayland: Bool, asNobody: Bool
  ) throws(RunnerError) -> String {
    removeStale()
    var template = Array("/tmp/\(folderPrefix)\(MachineClaim.currentToken)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      let e = Errno.current
      throw RunnerError(
        .displayFailed, "cannot create the compositor's runtime folder: \(e.message)", errno: e)
    }
    let folder = String(cString: made)
    ProcessGuard.running?.removeOnExit(folder)
    do {
      if kind == .sway {
        try FileSystem.replaceAtomically(
          swayConfiguration(width: width, height: height, refreshHz: refreshHz, xwayland: xwayland),
          atPath: folder + "/sway.config")
      }
      if asNobody { _ = try SystemCall.retrying { chown(folder, unprivileged, unprivileged) } }
    } catch {
      try? FileSystem.remove(atPath: folder)  // the failure below is the one to report
      ProcessGuard.running?.keep(folder)
      throw RunnerError(
        .displayFailed, "cannot prepare the compositor's runtime folder: \(error.message)", errno: error)
    }
    return folder
  }

  /// sway's configuration: the output's mode, no borders or gaps (the app's one window fills
  /// the output at (0, 0)), no bar (none is configured), no swaynag; Xwayland only when asked,
  /// then started with sway (`force`), not lazily at the first X client's connection.
  static func swayConfiguration(width: Int, height: Int, refreshHz: Double, xwayland: Bool = false) -> String
  {
    """
    # Written by bench for a private headless sway (FirstFrame, issue 36).
    output HEADLESS-1 mode \(width)x\(height)@\(hertz(refreshHz))Hz position 0 0
    default_border none
    default_floating_border none
    gaps inner 0
    gaps outer 0
    focus_follows_mouse no
    swaynag_command -
    xwayland \(xwayland ? "force" : "disable")

    """
  }

  /// `60`, `59.94`: the refresh as sway's `mode` reads it.
  static func hertz(_ refreshHz: Double) -> String {
    refreshHz == refreshHz.rounded() ? String(Int(refreshHz)) : String(format: "%.3f", refreshHz)
  }

  /// The command line: the compositor (cage with a placeholder application that dies with it:
  /// cage needs one and exits when it does), behind setpriv when bench is root.
  static func arguments(_ kind: WaylandCompositorKind, program: String, folder: String, asNobody: Bool)
    -> [String]
  {
    let compositor: [String]
    switch kind {
    case .sway: compositor = [program, "-c", folder + "/sway.config"]
    case .cage:
      compositor = [program, "-d", "--", setpriv, "--pdeathsig", "KILL", "--", "/bin/sleep", "infinity"]
    }
    guard asNobody else { return compositor }
    return [
      setpriv, "--reuid=\(unprivileged)", "--regid=\(unprivileged)", "--clear-groups", "--pdeathsig", "KILL",
      "--",
    ] + compositor
  }

  /// The compositor's whole environment: headless, pixman, its folder; nothing of bench's
  /// display (no `DISPLAY` or `WAYLAND_DISPLAY`).
  static func environment(_ kind: WaylandCompositorKind, folder: String) -> [String: String] {
    var env = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "XDG_RUNTIME_DIR": folder,
      "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
    ]
    if kind == .cage { env["WLR_HEADLESS_OUTPUTS"] = "1" }
    if let lang = ProcessInfo.processInfo.environment["LANG"] { env["LANG"] = lang }
    return env
  }

  /// Starts the owner thread: it spawns the compositor with its parent-death signal (SIGKILL)
  /// tied to that thread, records the spawn's outcome on `owner` (then `started`), and waits
  /// for it to end (then `ended`).
  private static func startOwnerThread(
    _ owner: Owner, arguments: [String], environment: [String: String], output: ProcessControl.ChildDescriptor
  ) throws(RunnerError) {
    do {
      try SystemThread.start(name: "firstframe.wayland") {
        let result = Result { () throws(Errno) -> pid_t in
          try ProcessControl.spawn(
            path: arguments[0], arguments: arguments, environment: environment,
            descriptors: [1: output, 2: .sameAs(1)], deathSignal: SIGKILL)
        }
        owner.spawned.withLock { $0 = result }
        owner.started.signal()
        guard case .success(let pid) = result else { return }
        let status = (try? ProcessControl.waitForExit(pid)) ?? 0
        owner.ended.withLock { $0 = ChildProcess.decode(status) }
        owner.endedSignal.signal()
      }
    } catch {
      throw RunnerError(
        .displayFailed, "cannot start the compositor's thread: \(error.message)", errno: error)
    }
  }

  /// Sends SIGTERM to the compositor's group, SIGKILL after `grace` seconds (at once when 0),
  /// and waits (up to 5 s more) for the owner thread to see it end.
  private static func kill(_ pid: pid_t, owner: Owner, grace: Double) {
    guard owner.ended.withLock({ $0 }) == nil else { return }
    if grace > 0 {
      Glibc.kill(-pid, SIGTERM)
      if owner.endedSignal.wait(timeout: .now() + grace) == .success {
        owner.endedSignal.signal()  // for another waiter
        Glibc.kill(-pid, SIGKILL)  // what it started in its group (cage's placeholder)
        return
      }
    }
    Glibc.kill(-pid, SIGKILL)
    Glibc.kill(pid, SIGKILL)
    if owner.endedSignal.wait(timeout: .now() + 5) == .success { owner.endedSignal.signal() }
  }

  /// Stops the compositor (SIGTERM to its process group, then SIGKILL after `grace` seconds),
  /// waits for it, and removes its runtime folder. Safe to call more than once.
  package func stop(grace: Double = 2) {
    guard
      !stopped.withLock({ s -> Bool in
        defer { s = true }
        return s
      })
    else { return }
    // cage 0.1.4 aborts on SIGTERM (an assertion in wl_display_terminate): it gets SIGKILL.
    Self.kill(pid, owner: owner, grace: kind == .cage ? 0 : grace)
    // What wlroots removes on a clean exit, when sway was killed before it could.
    if xwaylandDisplay != nil { Self.removeXwaylandFiles(of: pid) }
    if let x = xwaylandProcessID { ProcessControl.ownOrphans.withLock { _ = $0.remove(x) } }
    ProcessGuard.running?.release(group: pid)
    try? FileSystem.remove(atPath: runtimeFolder)  // cleanup on the way out: nothing to tell anyone
    ProcessGuard.running?.keep(runtimeFolder)
  }

  deinit { stop() }
}
