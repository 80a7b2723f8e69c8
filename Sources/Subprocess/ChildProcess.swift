#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Synchronization
import SystemCalls

/// A process the runner started with ``ProcessControl/spawn(path:arguments:environment:descriptors:deathSignal:)``
/// (`posix_spawn`), reaped with ``ProcessControl/reapIfEnded(_:)`` (`waitpid`).
///
/// Foundation's `Process.waitUntilExit()` adds ~50 ms per run; this adds nothing. Each child
/// gets its own process group so that the runner can stop it and everything it started with
/// one `kill(-pgid)`, and so that Ctrl-C on the terminal reaches the runner, which then stops
/// children in order. When the child is reaped, whatever it left in its group is killed: a run
/// leaves nothing behind.
///
/// When bench's ``ProcessGuard`` runs, every child's group is reported to it at spawn and released
/// once reaped, so that the guard kills it if bench dies first (even by SIGKILL).
package final class ChildProcess: Sendable {
  /// The child's pid (and process group id).
  package let pid: pid_t
  /// How the child entered the cgroup it was spawned into; nil when it was spawned into none.
  package let cgroupEntry: ProcessControl.CgroupEntry?

  private init(pid: pid_t, cgroupEntry: ProcessControl.CgroupEntry? = nil) {
    self.pid = pid
    self.cgroupEntry = cgroupEntry
  }

  /// How a child ended.
  package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// `exit(status)`.
    case exited(Int32)
    /// Killed by a signal.
    case signaled(Int32)

    /// `exit(0)`.
    package var isSuccess: Bool { self == .exited(0) }

    /// "exited with status N" or "killed by signal SIGNAME".
    package var description: String {
      switch self {
      case .exited(let s): return "exited with status \(s)"
      case .signaled(let sig): return "killed by signal \(ProcessControl.signalName(sig))"
      }
    }
  }

  /// Spawns `argv` with `environment`. `inheritedFDs` maps child descriptor numbers to parent
  /// descriptors (dup2'ed); stdout goes to `logPath` (or /dev/null), stderr to `errorLogPath`
  /// (or with stdout; to `logPath` when `inheritedFDs` gives stdout), unless `inheritedFDs` gives
  /// descriptor 1 or 2 (a pipe bench drains). With `user`, the child runs as that user and holds
  /// no other descriptor of bench's (the app under test when bench is root: ``ProcessControl``).
  /// With `cgroup`, the child starts in that cgroup — cloned into it on cgroup v2, joining it
  /// before it execs on v1 (``cgroupEntry`` says which): it and everything it forks run there
  /// from the start.
  package static func spawn(
    argv: [String], environment: [String: String], inheritedFDs: [Int32: Int32] = [:],
    logPath: String? = nil, errorLogPath: String? = nil, user: UserIdentity? = nil,
    cgroup: ProcessControl.ChildCgroup? = nil
  ) throws(RunnerError) -> ChildProcess {
    precondition(!argv.isEmpty)
    var descriptors = inheritedFDs.mapValues { ProcessControl.ChildDescriptor.inherited($0) }
    if inheritedFDs[1] == nil { descriptors[1] = .appending(toPath: logPath ?? "/dev/null") }
    if inheritedFDs[2] != nil {
      // Given above.
    } else if let errorLogPath {
      descriptors[2] = .appending(toPath: errorLogPath)
    } else if inheritedFDs[1] == nil {
      descriptors[2] = .sameAs(1)
    } else {
      // stdout is inherited; stderr goes to the log, not to this process's own stdout.
      descriptors[2] = .appending(toPath: logPath ?? "/dev/null")
    }
    // The child exists only once the guard has been told of its group: a second Ctrl-C that
    // ends bench at once waits for this (``withNoSpawnInFlight(_:)``).
    let spawned: Result<(pid_t, ProcessControl.CgroupEntry?), Errno> = spawning.withLock { _ in
      Result { () throws(Errno) -> (pid_t, ProcessControl.CgroupEntry?) in
        let (pid, entry): (pid_t, ProcessControl.CgroupEntry?)
        if let cgroup {
          (pid, entry) = try ProcessControl.spawnReportingEntry(
            path: argv[0], arguments: argv, environment: environment, descriptors: descriptors, user: user,
            cgroup: cgroup)
        } else {
          (pid, entry) = (
            try ProcessControl.spawn(
              path: argv[0], arguments: argv, environment: environment, descriptors: descriptors, user: user),
            nil
          )
        }
        ProcessGuard.current.withLock { $0 }?.watch(group: pid)
        return (pid, entry)
      }
    }
    switch spawned {
    case .success(let (pid, entry)): return ChildProcess(pid: pid, cgroupEntry: entry)
    case .failure(let error):
      throw RunnerError(.spawnFailed, "cannot start \(argv[0]): \(error.message)", errno: error)
    }
  }

  /// Held from the spawn until the new child's group is reported to the ``ProcessGuard``.
  private static let spawning = PThreadMutex<Void>(())

  /// Runs `body` while no child is being spawned: every child started so far has been reported
  /// to the ``ProcessGuard``, and none starts until `body` returns. Bench ends itself at once
  /// (the second Ctrl-C) inside it, so that no child can be left between its spawn and the
  /// guard's knowing of it (seen in the fault suite: the app of a run spawned at that moment
  /// outlived bench).
  package static func withNoSpawnInFlight<T>(_ body: () throws -> T) rethrows -> T {
    try spawning.withLock { _ in try body() }
  }

  /// Reaps the child if it has ended (then kills what it left in its process group); nil while
  /// it runs.
  package func poll() -> Termination? {
    let status: Int32
    do {
      guard let ended = try ProcessControl.reapIfEnded(pid) else { return nil }
      status = ended
    } catch {
      return .exited(-1)  // already reaped (ECHILD)
    }
    kill(-pid, SIGKILL)  // anything the child left in its group
    ProcessGuard.current.withLock { $0 }?.release(group: pid)
    return Self.decode(status)
  }

  /// Waits up to `timeout` seconds for the child to end, checking every millisecond; nil if it
  /// is still running.
  package func wait(timeout: Double) -> Termination? {
    var ended: Termination?
    _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ UInt64(timeout * 1e9), slice: 1_000_000) {
      ended = poll()
      return ended != nil
    }
    return ended
  }

  /// Sends `signal` to the child's whole process group.
  package func signalGroup(_ signal: Int32) {
    kill(-pid, signal)
    kill(pid, signal)
  }

  /// Stops the child: SIGTERM to its group, up to `grace` seconds, then SIGKILL; always reaps.
  @discardableResult
  package func terminate(grace: Double = 1.0) -> Termination {
    if let t = poll() { return t }
    signalGroup(SIGTERM)
    if let t = wait(timeout: grace) { return t }
    signalGroup(SIGKILL)
    return wait(timeout: 5) ?? .signaled(SIGKILL)
  }

  /// How a child ended, from its wait status.
  package static func decode(_ status: Int32) -> Termination {
    if let signal = ProcessControl.signal(ofStatus: status) { return .signaled(signal) }
    return .exited(ProcessControl.exitCode(ofStatus: status) ?? -1)
  }
}
