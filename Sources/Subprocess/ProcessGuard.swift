#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Synchronization
import SystemCalls

/// Stops what bench started when bench dies, however it dies (SIGKILL included): a small helper
/// process, bench itself re-run with the hidden `__guard` command, that holds the read end of a
/// pipe from bench.
///
/// Bench tells it, one line per message, the process group of every child it starts (`ChildProcess`
/// does this for each spawn) and releases it when the child is reaped, and names the temporary
/// folders to remove. When the pipe reaches end of input — bench exited, normally or not, since
/// only bench holds the write end (close-on-exec, so no child inherits it) — the guard sends
/// SIGKILL to every group still listed and removes every folder still listed, then exits.
/// The guard runs in a process group of its own and ignores the terminal's signals, so a Ctrl-C
/// or a `kill` of bench's group does not take it down with bench.
///
/// A child that leaves its process group on purpose (`setsid`) is not in a group the guard kills;
/// bench, a child subreaper from ``start()`` on, kills it at the run's end instead
/// (``ProcessTree/killEscaped(grace:)``), but if bench is killed first it outlives bench.
package final class ProcessGuard: Sendable {
  /// The guard of this process, once started: `ChildProcess` reports each child to it.
  static let current = PThreadMutex<ProcessGuard?>(nil)
  /// This process's guard, once ``start()`` started it; nil before, and in programs without one.
  package static var running: ProcessGuard? { current.withLock { $0 } }
  /// The executable that implements the hidden helper commands (`__guard`, `__burn`): set by
  /// bench's entry point; nil in other programs (tests), which then start no guard.
  static let helperExecutable = PThreadMutex<String?>(nil)

  /// Says that `executable` (this program, bench) runs the hidden `__guard` command, so that
  /// ``start()`` may start the guard. Bench's entry point calls it; other programs do not.
  package static func enable(executable: String) { helperExecutable.withLock { $0 = executable } }
  /// The hidden command that runs the guard.
  package static let command = "__guard"

  private let outbox: GuardOutbox
  private let process: ChildProcess

  private init(writeEnd: Int32, process: ChildProcess) {
    self.outbox = GuardOutbox(fd: writeEnd)
    self.process = process
  }

  /// Starts the guard (once per process) when this program can run it; nil otherwise.
  /// - Throws: `RunnerError` when the pipe or the process cannot be created.
  @discardableResult
  package static func start() throws(RunnerError) -> ProcessGuard? {
    if let running = current.withLock({ $0 }) { return running }
    guard let executable = helperExecutable.withLock({ $0 }) else { return nil }
    // Bench also becomes its descendants' subreaper, so that what an app leaves outside its
    // process group comes back to bench and is killed at the run's end
    // (``ProcessTree/killEscaped(grace:)``); without it (an old kernel) nothing is counted.
    try? ProcessControl.becomeChildSubreaper()
    let (readEnd, writeEnd): (Int32, Int32)
    do {
      (readEnd, writeEnd) = try ProcessControl.pipe()
    } catch {
      throw RunnerError(
        .spawnFailed, "cannot create the process guard's pipe: \(error.message)", errno: error)
    }
    let process: ChildProcess
    do {
      process = try ChildProcess.spawn(
        argv: [executable, command], environment: ProcessInfo.processInfo.environment,
        inheritedFDs: [0: readEnd])
    } catch {
      FileDescriptorIO.close(readEnd)
      FileDescriptorIO.close(writeEnd)
      throw error
    }
    FileDescriptorIO.close(readEnd)
    // Never wait on the guard: a message that does not fit waits in the outbox (none is dropped).
    _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
    let started = ProcessGuard(writeEnd: writeEnd, process: process)
    current.withLock { $0 = started }
    // Bench's claim on what it makes (MachineClaim): the guard removes it when bench is gone.
    if let claim = MachineClaim.current { started.removeClaimOnExit(claim.path) }
    return started
  }

  /// Asks the guard to kill process group `group` if bench dies before releasing it (also for
  /// a server bench starts outside `ChildProcess`: a private compositor).
  package func watch(group: pid_t) { send("+\(group)") }

  /// The child leading `group` was reaped and its group killed: nothing left to watch.
  package func release(group: pid_t) { send("-\(group)") }

  /// Asks the guard to remove `path` (recursively) if bench dies before ``keep(_:)``.
  package func removeOnExit(_ path: String) { send("rm " + path) }

  /// Asks the guard to remove the folder `path` with `rmdir` alone if bench dies before
  /// ``keep(_:)``: a kernel object that is a folder (a tracefs instance), whose files cannot be
  /// deleted one by one.
  package func removeDirectoryOnExit(_ path: String) { send("rmdir " + path) }

  /// Asks the guard to remove bench's claim file `path` (``MachineClaim``) when bench is gone,
  /// after everything else, and only when every folder it was left to remove is gone.
  package func removeClaimOnExit(_ path: String) { send("unclaim " + path) }

  /// Asks the guard to write back the kernel settings saved in `stateFile`
  /// (``SavedControlValues``: the cpufreq cap's originals) if bench dies before ``keep(_:)``,
  /// when the file still names bench's claim as its owner.
  package func restoreOnExit(_ stateFile: String) { send("restore " + stateFile) }

  /// Tells the guard the machine lock bench takes for a condition that needs the whole machine
  /// (``MachineLock``): a cap is written back only under it, so that the guard of a killed bench
  /// never undoes the cap of the next bench, which took the lock the moment the killed one let go
  /// (that bench writes the killed one's cap back itself, its claim being free).
  package func lockBeforeRestoring(_ path: String) { send("lock " + path) }

  /// Bench removed (or keeps) `path` itself: the guard forgets it.
  package func keep(_ path: String) { send("keep " + path) }

  /// Asks the guard to remove, if bench dies, the entries of `folder` whose names begin with
  /// `prefix` (bench's shared-memory display surfaces: `/dev/shm/firstframe-<pid>-…`).
  package func removeOnExit(in folder: String, namesStartingWith prefix: String) {
    guard !prefix.isEmpty, !prefix.contains("/") else { return }
    send("rmprefix " + prefix + "/" + folder)
  }

  private func send(_ line: String) {
    guard !line.contains("\n") else { return }
    outbox.send(line)
  }

  /// Removes the kernel folder `path` (a tracefs instance) with `rmdir`, retrying for up to 30 s
  /// while it fails for any reason but its absence: bench's last open file in it is released
  /// only as bench's exit finishes, which can be after the guard saw its pipe end, and a bench
  /// killed while it sized the instance's buffer leaves the kernel busy with it a while longer.
  @discardableResult
  static func removeBusyDirectory(_ path: String) -> Bool {
    for _ in 0..<1500 {
      do {
        try FileSystem.removeDirectory(atPath: path)
        return true
      } catch {
        guard error != .noSuchFile else { return true }
        MonotonicClock.sleep(nanoseconds: 20_000_000)
      }
    }
    return false
  }

  /// The machine lock at `path`, waited for (a line on standard error says so) for up to an hour
  /// while another bench holds it; nil when it cannot be had (the write-back goes ahead: it
  /// touches only a state file that still names bench's claim).
  static func waitForMachine(_ path: String) -> MachineLock? {
    var said = false
    for _ in 0..<36_000 {
      switch try? MachineLock.take(atPath: path, for: "writing back a killed bench's cpufreq cap") {
      case .success(let lock): return lock
      case .failure(let holder):
        if !said {
          said = true
          try? FileDescriptorIO.writeAll(
            2,
            "bench guard: waiting for the machine to write back the killed bench's cpufreq cap: \(holder.description)\n"
          )
        }
        MonotonicClock.sleep(nanoseconds: 100_000_000)
      case nil: return nil
      }
    }
    return nil
  }

  /// The guard's own pid (for tests and diagnostics).
  package var pid: pid_t { process.pid }

  /// The body of `bench __guard`: reads messages on standard input until end of input, then kills
  /// every process group still watched and removes every folder still listed. Never returns.
  package static func serve() -> Never {
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU] { signal(sig, SIG_IGN) }
    var groups = Set<pid_t>()
    var paths: [String] = []
    var folders: [String] = []
    var prefixes: [(folder: String, prefix: String)] = []
    var claims: [String] = []
    var restores: [String] = []
    var lock: String?
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { (try? FileDescriptorIO.read(0, into: $0)) ?? 0 }
      if n <= 0 { break }
      for byte in buffer[0..<n] {
        guard byte == UInt8(ascii: "\n") else {
          if pending.count < 8192 { pending.append(byte) }
          continue
        }
        let line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        if line.hasPrefix("+"), let g = pid_t(line.dropFirst()), g > 1 {
          groups.insert(g)
        } else if line.hasPrefix("-"), let g = pid_t(line.dropFirst()) {
          groups.remove(g)
        } else if line.hasPrefix("rmdir /") {
          folders.append(String(line.dropFirst(6)))
        } else if line.hasPrefix("rm /") {
          paths.append(String(line.dropFirst(3)))
        } else if line.hasPrefix("rmprefix "), let slash = line.firstIndex(of: "/") {
          let prefix = String(line[line.index(line.startIndex, offsetBy: 9)..<slash])
          if !prefix.isEmpty { prefixes.append((String(line[slash...]), prefix)) }
        } else if line.hasPrefix("restore /") {
          restores.append(String(line.dropFirst(8)))
        } else if line.hasPrefix("lock /") {
          lock = String(line.dropFirst(5))
        } else if line.hasPrefix("unclaim /") {
          claims.append(String(line.dropFirst(8)))
        } else if line.hasPrefix("keep ") {
          let path = String(line.dropFirst(5))
          paths.removeAll { $0 == path }
          folders.removeAll { $0 == path }
          restores.removeAll { $0 == path }
        }
      }
    }
    for g in groups {
      kill(-g, SIGKILL)
      kill(g, SIGKILL)
    }
    for path in paths { try? FileSystem.remove(atPath: path, absentIsFine: true) }
    let removedAll = folders.map { removeBusyDirectory($0) }.allSatisfy { $0 }
    for (folder, prefix) in prefixes {
      for entry in (try? FileSystem.contentsOfDirectory(atPath: folder)) ?? []
      where entry.hasPrefix(prefix) {
        unlink(folder + "/" + entry)
      }
    }
    // Bench's caps, under the machine lock, when they still name bench's claim (a later bench's
    // are its own).
    let owner = claims.first.map { String($0.split(separator: "/").last ?? "") }
    let held = restores.isEmpty ? nil : lock.flatMap { waitForMachine($0) }
    for file in restores { SavedControlValues.writeBack(from: file, owner: owner) }
    withExtendedLifetime(held) {}
    // A claim goes last: whatever could not be removed stays claimed, for the next bench to sweep.
    if removedAll { for claim in claims { unlink(claim) } }
    exit(0)
  }
}
