#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import Foundation
import Subprocess
import Synchronization
import SystemCalls
import X11Display

/// A private X server (Xvfb) for one benchmark: started with `-displayfd` (it picks a free
/// display number and reports it), `-nolisten tcp`, `-noreset`, a screen that fits the preview,
/// and its own `MIT-MAGIC-COOKIE-1` (an Xauthority file bench writes, readable by this user only).
///
/// **It never outlives bench.** A thread of its own starts Xvfb with `PR_SET_PDEATHSIG` (SIGTERM)
/// tied to that thread and then waits for it (`waitpid`), so the kernel stops Xvfb if bench is
/// killed, `stop()` stops it on Ctrl-C and at the end, and its exit mid-benchmark is known at
/// once (`exitReason`). After it ends, its lock file and socket (`/tmp/.X<N>-lock`,
/// `/tmp/.X11-unix/X<N>`) are removed if it left them, and so is the Xauthority file.
package final class XvfbServer: Sendable {
  /// The display name, `:N`.
  package let displayName: String
  /// The cookie clients show.
  package let authorization: X11Authorization
  /// The Xauthority file clients read (`XAUTHORITY`).
  package let authorityFile: String
  /// Xvfb's pid.
  package let pid: pid_t
  /// The screen, `W×H×24`.
  package let screen: String
  /// Whether Xvfb got `SCHED_FIFO` (`sched_setscheduler`).
  package let realtimeGranted: Bool

  private let folder: String
  private let displayNumber: Int
  private let owner: Owner
  private let stopped = PThreadMutex(false)

  /// What the owner thread tells the rest: the spawn's outcome, then how Xvfb ended.
  final class Owner: Sendable {
    let spawned = PThreadMutex<Result<pid_t, Errno>?>(nil)
    let started = DispatchSemaphore(value: 0)
    let ended = PThreadMutex<ChildProcess.Termination?>(nil)
    let endedSignal = DispatchSemaphore(value: 0)
  }

  /// Why the server is gone ("the X server Xvfb :1 exited: killed by signal SIGKILL"), or nil
  /// while it runs.
  package var exitReason: String? {
    owner.ended.withLock { $0 }.map { "the X server (Xvfb \(displayName)) exited: \($0)" }
  }

  /// The path of `Xvfb` on `PATH`, or nil.
  package static func locate() -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    where FileSystem.isExecutable(atPath: "\(dir)/Xvfb") {
      return "\(dir)/Xvfb"
    }
    return nil
  }

  /// The one line for a machine without Xvfb.
  package static let missingMessage =
    "--display x11 needs Xvfb: install the package xvfb (apt-get install xvfb)"

  /// Starts Xvfb with a `width`×`height`×24 screen, its output in `logPath` (or /dev/null), and
  /// waits (up to `timeout` seconds) until it accepts clients. `realtime` asks for `SCHED_FIFO`.
  /// - Throws: `RunnerError` `.displayFailed` — Xvfb missing (the package to install), or it
  ///   exited or stayed silent (with the end of its log).
  package init(width: Int, height: Int, logPath: String? = nil, realtime: Bool = true, timeout: Double = 15)
    throws(RunnerError)
  {
    guard let xvfb = Self.locate() else { throw RunnerError(.displayFailed, Self.missingMessage) }
    let prepared = try Self.prepare()
    let folder = prepared.folder
    let fds = prepared.fds
    let output = ProcessControl.ChildDescriptor.appending(toPath: logPath ?? "/dev/null")
    let screen = "\(width)x\(height)x24"
    let arguments = [
      xvfb, "-displayfd", String(fds.write), "-nolisten", "tcp", "-noreset", "-auth", prepared.authorityFile,
      "-screen", "0", screen,
    ]
    let owner = Owner()
    try Self.startOwnerThread(owner, xvfb: xvfb, arguments: arguments, output: output, displayFD: fds.write)
    owner.started.wait()
    close(fds.write)
    defer { close(fds.read) }
    let pid = try Self.spawnedPID(owner, xvfb: xvfb, folder: folder)
    // -displayfd: Xvfb writes its display number and a newline once it accepts clients.
    guard let number = Self.readDisplayNumber(fds.read, timeout: timeout) else {
      throw Self.silentServerError(pid: pid, owner: owner, logPath: logPath, folder: folder, timeout: timeout)
    }
    try? XauthorityFile.write(prepared.authorization, display: number, to: prepared.authorityFile)
    self.displayName = ":\(number)"
    self.displayNumber = number
    self.authorization = prepared.authorization
    self.authorityFile = prepared.authorityFile
    self.pid = pid
    self.screen = screen
    self.realtimeGranted = realtime ? Self.requestRealtime(pid) : false
    self.folder = folder
    self.owner = owner
  }

  /// What Xvfb is started with: its private folder, the cookie and the Xauthority file that holds
  /// it (no display yet), and the pipe Xvfb reports its display number on (`-displayfd`).
  private struct Preparation {
    let folder: String
    let authorization: X11Authorization
    let authorityFile: String
    let fds: (read: Int32, write: Int32)
  }

  /// Makes the private folder, writes a new cookie to its Xauthority file and opens the
  /// `-displayfd` pipe; when the file or the pipe fails, the folder is removed.
  private static func prepare() throws(RunnerError) -> Preparation {
    let folder: String
    do {
      folder = try Self.privateFolder()
    } catch {
      throw RunnerError(
        .displayFailed, "cannot create a folder for Xvfb's authorization: \(error.message)", errno: error)
    }
    let authorization = XauthorityFile.newCookie()
    let authorityFile = folder + "/Xauthority"
    let fds: (read: Int32, write: Int32)
    do {
      try XauthorityFile.write(authorization, display: nil, to: authorityFile)
      fds = try ProcessControl.pipe()
    } catch {
      try? FileSystem.remove(atPath: folder)  // the failure below is the one to report
      throw RunnerError(.displayFailed, "cannot prepare Xvfb: \(error)")
    }
    return Preparation(folder: folder, authorization: authorization, authorityFile: authorityFile, fds: fds)
  }

  /// Starts the owner thread: it spawns Xvfb (`arguments`, stdout and stderr to `output`,
  /// `displayFD` inherited) with its parent-death signal tied to that thread, records the spawn's
  /// outcome on `owner` (then `started`), and waits for Xvfb to end (then `ended`).
  private static func startOwnerThread(
    _ owner: Owner, xvfb: String, arguments: [String], output: ProcessControl.ChildDescriptor,
    displayFD: Int32
  ) throws(RunnerError) {
    let environment = ProcessInfo.processInfo.environment
    do {
      // The owner thread: Xvfb's parent-death signal is tied to it, so it waits for Xvfb.
      try SystemThread.start(name: "firstframe.xvfb") {
        let result = Result { () throws(Errno) -> pid_t in
          try ProcessControl.spawn(
            path: xvfb, arguments: arguments, environment: environment,
            descriptors: [1: output, 2: .sameAs(1), displayFD: .inherited(displayFD)], deathSignal: SIGTERM)
        }
        owner.spawned.withLock { $0 = result }
        owner.started.signal()
        guard case .success(let pid) = result else { return }
        let status = (try? ProcessControl.waitForExit(pid)) ?? 0
        owner.ended.withLock { $0 = ChildProcess.decode(status) }
        owner.endedSignal.signal()
      }
    } catch {
      throw RunnerError(.displayFailed, "cannot start Xvfb's thread: \(error.message)", errno: error)
    }
  }

  /// Xvfb's pid once the owner thread has recorded the spawn; when the spawn failed, `folder` is
  /// removed and the failure thrown.
  private static func spawnedPID(_ owner: Owner, xvfb: String, folder: String) throws(RunnerError) -> pid_t {
    switch owner.spawned.withLock({ $0 }) {
    case .success(let p): return p
    case .failure(let e):
      try? FileSystem.remove(atPath: folder)  // the spawn's failure is the one to report
      throw RunnerError(.displayFailed, "cannot start \(xvfb): \(e.message)", errno: e)
    case nil: fatalError("the owner thread signals after recording the spawn")
    }
  }

  /// Kills an Xvfb that exited or never reported its display, removes what it and bench left, and
  /// says why, with the last lines of its log (at `logPath`).
  private static func silentServerError(
    pid: pid_t, owner: Owner, logPath: String?, folder: String, timeout: Double
  ) -> RunnerError {
    kill(pid, SIGKILL)
    _ = owner.endedSignal.wait(timeout: .now() + 5)
    let tail =
      logPath.flatMap { FileSystem.readText(atPath: $0) }?
      .split(separator: "\n").suffix(3).joined(separator: " / ") ?? ""
    Self.removeLeftovers(pid: pid, display: nil)
    try? FileSystem.remove(atPath: folder)  // the server's failure is the one to report
    let why =
      owner.ended.withLock { $0 }.map { "exited: \($0)" } ?? "did not report a display within \(timeout) s"
    return RunnerError(.displayFailed, "Xvfb \(why)" + (tail.isEmpty ? "" : " (\(tail))"))
  }

  /// Asks for `SCHED_FIFO` (10 above the minimum priority) for Xvfb; whether it was granted.
  private static func requestRealtime(_ pid: pid_t) -> Bool {
    var param = sched_param()
    param.sched_priority = min(sched_get_priority_min(SCHED_FIFO) + 10, sched_get_priority_max(SCHED_FIFO))
    return sched_setscheduler(pid, SCHED_FIFO, &param) == 0
  }

  /// `/tmp/firstframe-xvfb-<bench's claim token>-XXXXXX`, mode 0700; folders of benches that
  /// are gone (killed with SIGKILL, which nothing can clean up after: their claim is free,
  /// `MachineClaim`) are removed first.
  private static func privateFolder() throws(Errno) -> String {
    let prefix = "firstframe-xvfb-"
    let names = (try? FileSystem.contentsOfDirectory(atPath: "/tmp")) ?? []
    _ = MachineClaim.removeLeftovers(names, prefix: prefix) {
      // Another bench's leftovers: best effort.
      (try? FileSystem.remove(atPath: "/tmp/" + $0)) != nil
    }
    var template = Array("/tmp/\(prefix)\(MachineClaim.currentToken)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw Errno.current }
    return String(cString: made)
  }

  /// Reads `N\n` from `fd` within `timeout` seconds; nil on EOF (Xvfb exited) or time-out.
  static func readDisplayNumber(_ fd: Int32, timeout: Double) -> Int? {
    var reader = PipeLineReader(fd)
    guard case .lines(let lines) = reader.lines(until: MonotonicClock.now() &+ UInt64(timeout * 1e9)) else {
      return nil
    }
    return lines.first.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Stops Xvfb (SIGTERM, then SIGKILL after `grace` seconds), waits for it, and removes what it
  /// and bench left: its lock file and socket, the Xauthority folder. Safe to call more than once.
  package func stop(grace: Double = 3) {
    guard
      !stopped.withLock({ s -> Bool in
        defer { s = true }
        return s
      })
    else { return }
    if owner.ended.withLock({ $0 }) == nil {
      kill(pid, SIGTERM)
      if owner.endedSignal.wait(timeout: .now() + grace) == .timedOut {
        kill(pid, SIGKILL)
        _ = owner.endedSignal.wait(timeout: .now() + 5)
      }
    }
    Self.removeLeftovers(pid: pid, display: displayNumber)
    try? FileSystem.remove(atPath: folder)  // cleanup on the way out: nothing to tell anyone
  }

  /// Removes `/tmp/.X<N>-lock` and `/tmp/.X11-unix/X<N>` when the lock names `pid` (Xvfb killed
  /// with SIGKILL cannot remove them itself). With `display` nil, every lock naming `pid`.
  static func removeLeftovers(pid: pid_t, display: Int?) {
    let locks =
      display.map { ["/tmp/.X\($0)-lock"] }
      ?? ((try? FileSystem.contentsOfDirectory(atPath: "/tmp")) ?? []).filter {
        $0.hasPrefix(".X") && $0.hasSuffix("-lock")
      }.map { "/tmp/" + $0 }
    for lock in locks {
      guard let text = FileSystem.readText(atPath: lock, maxBytes: 64),
        Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) == pid
      else { continue }
      let number = lock.dropFirst("/tmp/.X".count).dropLast("-lock".count)
      unlink("/tmp/.X11-unix/X\(number)")
      unlink(lock)
    }
  }

  deinit { stop() }
}
