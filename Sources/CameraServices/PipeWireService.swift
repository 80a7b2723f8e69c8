#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import LaunchContract
import Subprocess
import SystemCalls

/// bench's private PipeWire for `--camera pipewire:PATH` (issue 40): a PipeWire daemon with
/// WirePlumber, serving the V4L2 node `PATH` as one camera node (``PipeWireConfiguration``), in a
/// runtime folder of its own (`/tmp/firstframe-pipewire-<bench's claim token>-XXXXXX`, mode 0700,
/// the app user's), as the app user: a desktop user's PipeWire runs as that user. Apps reach it
/// with `PIPEWIRE_RUNTIME_DIR` (``clientEnvironment``) and target the node by its name.
///
/// **Cold and warm for a daemon** (``prepareRun(fresh:deadline:)``): a cold run gets a daemon
/// started for it (the one before is stopped), a warm one the daemon that served the runs before.
/// Either way the run is launched only once the node is suspended, that is, once no process of
/// the daemon holds the device open (read from `/proc/PID/fd`: the kernel's view, not the
/// daemon's word), so the app's first frame includes the device's open, format, buffers and
/// stream-on in the daemon. The daemon's start (to its node listed) is recorded beside the run,
/// not inside it: a desktop pays it at login, or at the first client of a socket-activated daemon.
///
/// **It never outlives bench.** The daemon is a child in its own process group (WirePlumber in
/// the same group, started by the daemon), which ``stop()`` ends (SIGTERM, then SIGKILL) and the
/// process guard kills if bench is killed; the runtime folder goes with it, and the next bench's
/// sweep (``removeStale(in:claims:)``) removes a folder whose claim is free, first killing a
/// daemon still running there.
package final class PipeWireService: Sendable {
  /// What the camera node streams: the V4L2 node, or (tests) a test pattern.
  package let source: PipeWireConfiguration.Source
  /// The V4L2 node the daemon serves; nil for the test pattern.
  package var devicePath: String? {
    if case .device(let path) = source { path } else { nil }
  }
  /// The camera node's name (`node.name`), what a client targets.
  package let nodeName: String
  /// The runtime folder: the daemon's socket `pipewire-0`, its configuration and state.
  package let runtimeFolder: String
  /// PipeWire's version (`pipewire --version`), or nil when it did not say.
  package let version: String?
  /// The user the daemon runs as (nil: bench's own).
  let user: UserIdentity?
  let programs: Programs
  let logPath: String
  let daemon = PThreadMutex<Daemon?>(nil)
  let stopped = PThreadMutex(false)
  /// How many daemons were started.
  let starts = PThreadMutex(0)

  /// The programs the service runs.
  package struct Programs: Sendable {
    package var pipewire: String
    package var wireplumber: String
    package var pwCLI: String
  }

  /// One running daemon.
  struct Daemon: Sendable {
    let child: ChildProcess
    /// WirePlumber's pid (and any other process of the daemon's group): the daemon double-forks
    /// it, so its parent is bench (a child subreaper), and bench's sweep of the processes that
    /// escaped an app would end it after every run (the next client then found no session
    /// manager to link it: "not-negotiated"). Listed in `ProcessControl.ownOrphans` while it runs.
    let sessionManager: [pid_t]
    /// The spawn to the node listed, ns.
    let startToReadyNanoseconds: UInt64
    /// Which start this is (1 for the first).
    let generation: Int
  }

  /// The prefix of every runtime folder's name in `/tmp`.
  package static let folderPrefix = "firstframe-pipewire-"
  /// The file in the runtime folder that names the daemon's pid, for the sweep.
  static let pidFile = "daemon.pid"

  /// The one line for a machine without the programs (the packages to install).
  package static let missingMessage =
    "--camera pipewire: needs pipewire, wireplumber and pw-cli: install the packages pipewire, wireplumber and pipewire-bin (apt-get install pipewire wireplumber pipewire-bin)"

  /// The programs on `PATH` (``ExecutableLookup``), or nil when one is missing.
  package static func locate() -> Programs? {
    guard let pipewire = ExecutableLookup.resolve("pipewire"),
      let wireplumber = ExecutableLookup.resolve("wireplumber"), let cli = ExecutableLookup.resolve("pw-cli")
    else { return nil }
    return Programs(pipewire: pipewire, wireplumber: wireplumber, pwCLI: cli)
  }

  /// Prepares the service for `source`, run as `user` (nil: bench's user), the daemon's output
  /// appended to `logPath`; starts nothing (``prepareRun(fresh:deadline:)`` starts the daemon).
  /// - Throws: `RunnerError` `.spawnFailed`: a program missing (the packages to install), or the
  ///   runtime folder could not be made.
  package init(source: PipeWireConfiguration.Source, user: UserIdentity?, logPath: String) throws(RunnerError)
  {
    guard let programs = Self.locate() else { throw RunnerError(.spawnFailed, Self.missingMessage) }
    Self.removeStale()
    let folder = try Self.makeFolder(user: user)
    do {
      try FileSystem.replaceAtomically(
        PipeWireConfiguration.daemon(
          source: source, nodeName: CameraSelection.pipeWireNodeName, wireplumber: programs.wireplumber),
        atPath: folder + "/pipewire.conf")
      try FileSystem.createDirectory(atPath: folder + "/wireplumber")
      try FileSystem.replaceAtomically(
        PipeWireConfiguration.sessionManager, atPath: folder + "/wireplumber/wireplumber.conf")
      try FileSystem.replaceAtomically(
        PipeWireConfiguration.sessionManagerScript, atPath: folder + "/wireplumber/firstframe.lua")
      try FileSystem.createDirectory(atPath: folder + "/state")
      if let user {
        for path in [folder, folder + "/wireplumber", folder + "/state"] {
          _ = try SystemCall.retrying { chown(path, user.uid, user.gid) }
        }
      }
    } catch {
      Self.removeFolder(folder)
      throw RunnerError(
        .spawnFailed, "cannot prepare PipeWire's runtime folder \(folder): \(error.message)", errno: error)
    }
    self.source = source
    self.nodeName = CameraSelection.pipeWireNodeName
    self.runtimeFolder = folder
    self.user = user
    self.programs = programs
    self.logPath = logPath
    self.version = Self.version(of: programs.pipewire, scratch: folder + "/state/version.out")
  }

  /// What an app is given to reach the daemon.
  package var clientEnvironment: [String: String] { ["PIPEWIRE_RUNTIME_DIR": runtimeFolder] }

  /// The running daemon's pid, or nil.
  package var daemonPID: pid_t? { daemon.withLock { $0?.child.pid } }

  /// The daemon's environment: its folder for everything it keeps, no D-Bus, no display.
  var daemonEnvironment: [String: String] {
    var env = [
      "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": runtimeFolder + "/state",
      "XDG_RUNTIME_DIR": runtimeFolder, "PIPEWIRE_RUNTIME_DIR": runtimeFolder,
      "XDG_CONFIG_HOME": runtimeFolder + "/state", "XDG_STATE_HOME": runtimeFolder + "/state",
      "WIREPLUMBER_CONFIG_DIR": runtimeFolder + "/wireplumber", "DBUS_SESSION_BUS_ADDRESS": "disabled:",
      "DISABLE_RTKIT": "1",
    ]
    // PipeWire's and WirePlumber's own log levels, when bench is run with them (a person looking
    // into a daemon that does not serve): their output goes to the results folder's pipewire.log.
    for key in ["LANG", "PIPEWIRE_DEBUG", "WIREPLUMBER_DEBUG"] {
      if let value = ProcessInfo.processInfo.environment[key] { env[key] = value }
    }
    return env
  }

  /// Starts a daemon (stopping the one running, if any) and waits until its camera node is
  /// listed, up to `deadline` (a ``MonotonicClock`` reading).
  /// - Throws: `RunnerError` `.spawnFailed`: the spawn failed, the daemon exited, or the node
  ///   was not listed in time (with the end of the daemon's log).
  func start(deadline: UInt64) throws(RunnerError) -> Daemon {
    stopDaemon()
    let began = MonotonicClock.now()
    let child = try ChildProcess.spawn(
      argv: [programs.pipewire, "-c", runtimeFolder + "/pipewire.conf"], environment: daemonEnvironment,
      logPath: logPath, user: user)
    try? FileSystem.replaceAtomically("\(child.pid)\n", atPath: runtimeFolder + "/" + Self.pidFile)
    let generation = starts.withLock { n -> Int in
      n += 1
      return n
    }
    while true {
      if let ended = child.poll() {
        throw RunnerError(.spawnFailed, "the PipeWire daemon \(ended) as it started\(logTail())")
      }
      // Ready: the node listed, and WirePlumber (in the daemon's group) running to link clients —
      // exec'd, not only the daemon's fork that will be it: the group's members are listed as
      // bench's own here, and one that appears later would be taken for an app's escape.
      let others = Self.processes(inGroup: child.pid).filter { $0 != child.pid }
      if others.contains(where: Self.isSessionManager),
        FileSystem.exists(atPath: runtimeFolder + "/pipewire-0"),
        nodeListed()
      {
        ProcessControl.ownOrphans.withLock { $0.formUnion(others) }
        let d = Daemon(
          child: child, sessionManager: others, startToReadyNanoseconds: MonotonicClock.now() &- began,
          generation: generation)
        daemon.withLock { $0 = d }
        return d
      }
      guard MonotonicClock.now() < deadline else {
        child.terminate(grace: 1)
        throw RunnerError(
          .spawnFailed,
          "the PipeWire daemon did not list the camera node \(nodeName) in time\(logTail())")
      }
      MonotonicClock.sleep(nanoseconds: 50_000_000)
    }
  }

  /// Whether `pw-cli ls Node`, run against the daemon, lists the camera node.
  func nodeListed() -> Bool {
    guard let text = cli(["ls", "Node"]) else { return false }
    return text.contains("node.name = \"\(nodeName)\"")
  }

  /// `pw-cli ARGS` against the daemon, as its user; its output, or nil when it failed or took
  /// more than 5 s.
  func cli(_ arguments: [String]) -> String? {
    let out = runtimeFolder + "/state/pw-cli.out"
    try? FileSystem.remove(atPath: out)
    guard
      let child = try? ChildProcess.spawn(
        argv: [programs.pwCLI] + arguments, environment: daemonEnvironment, logPath: out, user: user)
    else { return nil }
    let ended = child.wait(timeout: 5) ?? child.terminate(grace: 0.5)
    guard ended.isSuccess else { return nil }
    return FileSystem.readText(atPath: out, maxBytes: 1 << 20)
  }

  /// The last lines of the daemon's log (of its first 64 KiB: a start-up failure is early), as " (…)",
  /// or empty.
  func logTail() -> String {
    let tail =
      FileSystem.readText(atPath: logPath, maxBytes: 64 << 10)?.split(separator: "\n").suffix(3)
      .joined(separator: " / ") ?? ""
    return tail.isEmpty ? "" : " (\(tail))"
  }

  /// `pipewire --version`'s library version (`0.3.65`), or nil.
  static func version(of pipewire: String, scratch out: String) -> String? {
    defer { try? FileSystem.remove(atPath: out) }
    guard
      let child = try? ChildProcess.spawn(
        argv: [pipewire, "--version"], environment: ["PATH": "/usr/bin:/bin"], logPath: out)
    else { return nil }
    guard (child.wait(timeout: 5) ?? child.terminate(grace: 0.5)).isSuccess,
      let text = FileSystem.readText(atPath: out, maxBytes: 4096),
      let line = text.split(separator: "\n").first(where: { $0.contains("libpipewire") })
    else { return nil }
    return line.split(separator: " ").last.map(String.init)
  }

  /// Stops the running daemon (SIGTERM to its group, SIGKILL after 2 s), if any.
  func stopDaemon() {
    guard
      let d = daemon.withLock({ d -> Daemon? in
        defer { d = nil }
        return d
      })
    else { return }
    d.child.terminate(grace: 2)  // SIGTERM to the group, SIGKILL to what is left of it
    retire(d)
  }

  /// After the daemon `d` ended (and its group was killed): WirePlumber reaped (bench is its
  /// parent) and unlisted from bench's own orphans.
  func retire(_ d: Daemon) {
    let deadline = MonotonicClock.now() &+ 5_000_000_000
    for pid in d.sessionManager {
      // Reaped when bench is its parent (a subreaper); a zombie of another parent is gone too.
      while ProcessControl.isAlive(pid) && !ProcessControl.reapOrphan(pid)
        && ProcessControl.parentAndState(of: pid)?.state != "Z" && MonotonicClock.now() < deadline
      {
        MonotonicClock.sleep(nanoseconds: 1_000_000)
      }
    }
    ProcessControl.ownOrphans.withLock { $0.subtract(d.sessionManager) }
  }

  /// Stops the daemon and removes the runtime folder. Safe to call more than once.
  package func stop() {
    guard
      !stopped.withLock({ s -> Bool in
        defer { s = true }
        return s
      })
    else { return }
    stopDaemon()
    Self.removeFolder(runtimeFolder)
  }

  deinit { stop() }
}
