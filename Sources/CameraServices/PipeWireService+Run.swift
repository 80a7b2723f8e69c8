#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import ResultsSchema
import Subprocess
import SystemCalls

/// One run's daemon: started for it (cold) or kept from the runs before (warm), and the node
/// suspended before the app is spawned.
extension PipeWireService {
  /// Readies the daemon for one run: `fresh` (a cold run) starts a new one; otherwise the
  /// running one serves, and one that is not running (the first run, or it exited) is started
  /// and the record says so. Then waits until no process of the daemon holds the device open (the
  /// node suspended after the run before), up to `deadline` seconds. Returns the run's record;
  /// `verified` is false, with the reason, when the daemon could not be started or the device
  /// stayed open.
  package func prepareRun(fresh: Bool, deadline seconds: Double = 20) -> BenchResults.CameraDaemonRecord {
    let deadline = MonotonicClock.now() &+ UInt64(seconds * 1e9)
    var record = BenchResults.CameraDaemonRecord(daemon: "pipewire", state: "running", verified: false)
    var current = daemon.withLock { $0 }
    if let d = current, let ended = d.child.poll() {
      // It exited between runs: a warm run cannot have it; said, and started again.
      daemon.withLock { $0 = nil }
      retire(d)
      record.reason = "the PipeWire daemon (pid \(d.child.pid)) \(ended) after the run before"
      current = nil
    }
    if fresh || current == nil {
      do {
        current = try start(deadline: deadline)
      } catch {
        record.reason = [record.reason, error.message].compactMap { $0 }.joined(separator: "; ")
        return record
      }
      record.state = "started"
      record.startToReadyMs = Double(current!.startToReadyNanoseconds) / 1e6
    }
    guard let d = current else { return record }
    record.pid = Int(d.child.pid)
    record.generation = d.generation
    let waitStart = MonotonicClock.now()
    var open = holders(of: d)
    while !open.isEmpty && MonotonicClock.now() < deadline {
      MonotonicClock.sleep(nanoseconds: 10_000_000)
      open = holders(of: d)
    }
    record.suspendWaitMs = Double(MonotonicClock.now() &- waitStart) / 1e6
    record.deviceClosed = open.isEmpty
    if !open.isEmpty {
      record.reason = [
        record.reason,
        "the daemon still held \(devicePath ?? "the camera") open (pid \(open.map(String.init).joined(separator: ", "))) \(String(format: "%.0f", seconds)) s on: its node was not suspended",
      ].compactMap { $0 }.joined(separator: "; ")
      return record
    }
    // A warm run that had to start the daemon is not warm: verified only when the state is the
    // one asked for.
    record.verified = fresh ? record.state == "started" : record.state == "running"
    if !record.verified && record.reason == nil {
      record.reason = "the daemon was not running before this warm run: it was started for it"
    }
    return record
  }

  /// Checks after the run that the daemon that served it still runs; the reason when it does not.
  package func checkAfterRun(_ record: BenchResults.CameraDaemonRecord) -> String? {
    guard let pid = record.pid else { return nil }
    let d = daemon.withLock { $0 }
    guard let d, Int(d.child.pid) == pid else {
      return "the PipeWire daemon (pid \(pid)) was replaced during the run"
    }
    if let ended = d.child.poll() {
      daemon.withLock { $0 = nil }
      retire(d)
      return "the PipeWire daemon (pid \(pid)) \(ended) during the run"
    }
    return nil
  }

  /// The processes of the daemon's group that hold the device open: the daemon, and any process
  /// in its process group (WirePlumber, which would hold it if it ran the device itself).
  func holders(of d: Daemon) -> [pid_t] {
    guard let devicePath, let device = FileSystem.realPath(devicePath) else { return [] }
    return Self.processes(inGroup: d.child.pid).filter { Self.holdsOpen(device, pid: $0) }
  }

  /// The processes whose process group is `group` (``ProcessControl/processGroup(of:)``).
  static func processes(inGroup group: pid_t) -> [pid_t] {
    ((try? FileSystem.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter {
      ProcessControl.processGroup(of: $0) == group
    }
  }

  /// Whether `pid` runs WirePlumber: its command name (`/proc/PID/comm`) says so once it has
  /// exec'd it. The daemon starts it by a double fork, and until the exec both forks still say
  /// `pipewire` (under load, for long enough to be read: the daemon's group listed then lacked it).
  static func isSessionManager(_ pid: pid_t) -> Bool {
    FileSystem.readText(atPath: "/proc/\(pid)/comm", maxBytes: 64)?.hasPrefix("wireplumber") == true
  }

  /// Whether `pid` has a descriptor open on `device` (`/proc/PID/fd`'s links).
  static func holdsOpen(_ device: String, pid: pid_t) -> Bool {
    let fds = (try? FileSystem.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    return fds.contains { fd in
      (try? FileSystem.symbolicLinkDestination(atPath: "/proc/\(pid)/fd/\(fd)")) == device
    }
  }
}

/// The runtime folder: made with bench's claim token, swept when its bench is gone.
extension PipeWireService {
  /// Makes the runtime folder (mode 0700) and asks the guard to remove it if bench dies.
  static func makeFolder(user: UserIdentity?) throws(RunnerError) -> String {
    var template = Array("/tmp/\(folderPrefix)\(MachineClaim.currentToken)-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      let e = Errno.current
      throw RunnerError(.spawnFailed, "cannot create PipeWire's runtime folder: \(e.message)", errno: e)
    }
    let folder = String(cString: made)
    ProcessGuard.running?.removeOnExit(folder)
    return folder
  }

  /// Removes `folder` (best effort: cleanup on the way out) and tells the guard it is done.
  static func removeFolder(_ folder: String) {
    try? FileSystem.remove(atPath: folder)
    ProcessGuard.running?.keep(folder)
  }

  /// Removes the runtime folders in `parent` whose claim is free (their bench is gone), first
  /// killing the daemon still running in one (the pid in its `daemon.pid`, when that process's
  /// `PIPEWIRE_RUNTIME_DIR` is the folder, and its group); returns the folders removed.
  @discardableResult
  package static func removeStale(in parent: String = "/tmp", claims: [String] = MachineClaim.searchFolders)
    -> [String]
  {
    MachineClaim.removeLeftoverFolders(in: parent, prefix: folderPrefix, claims: claims) { folder in
      if let pid = leftoverDaemon(in: folder) {
        Glibc.kill(-pid, SIGKILL)
        Glibc.kill(pid, SIGKILL)
      }
    }
  }

  /// The pid in `folder`'s `daemon.pid` when that process lives with `folder` as its
  /// `PIPEWIRE_RUNTIME_DIR` (a pid reused by another process is never named).
  static func leftoverDaemon(in folder: String) -> pid_t? {
    guard let text = FileSystem.readText(atPath: folder + "/" + pidFile, maxBytes: 64),
      let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1,
      let environ = FileSystem.readFile(atPath: "/proc/\(pid)/environ", maxBytes: 1 << 20)
    else { return nil }
    let wanted = Array("PIPEWIRE_RUNTIME_DIR=\(folder)".utf8)
    return environ.split(separator: 0).contains { Array($0) == wanted } ? pid : nil
  }
}
