#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Synchronization
import SystemCalls

/// A process the runner started with `posix_spawn`, reaped with `waitpid`.
///
/// Foundation's `Process.waitUntilExit()` adds ~50 ms per run; this adds nothing. Each child
/// gets its own process group so that the runner can stop it and everything it started with
/// one `kill(-pgid)`, and so that Ctrl-C on the terminal reaches the runner, which then stops
/// children in order. When the child is reaped, whatever it left in its group is killed: a run
/// leaves nothing behind.
///
/// When bench's ``ProcessGuard`` runs, every child's group is reported to it at spawn and released
/// once reaped, so that the guard kills it if bench dies first (even by SIGKILL).
public final class ChildProcess: Sendable {
  /// The child's pid (and process group id).
  public let pid: pid_t

  private init(pid: pid_t) { self.pid = pid }

  /// How a child ended.
  public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// `exit(status)`.
    case exited(Int32)
    /// Killed by a signal.
    case signaled(Int32)

    /// `exit(0)`.
    public var isSuccess: Bool { self == .exited(0) }

    /// "exited with status N" or "killed by signal SIGNAME".
    public var description: String {
      switch self {
      case .exited(let s): return "exited with status \(s)"
      case .signaled(let sig): return "killed by signal \(ProcessControl.signalName(sig))"
      }
    }
  }

  /// Spawns `argv` with `environment`. `inheritedFDs` maps child descriptor numbers to parent
  /// descriptors (dup2'ed); stdout goes to `logPath` (or /dev/null), stderr to `errorLogPath`
  /// (or with stdout; to `logPath` when `inheritedFDs` gives stdout), unless `inheritedFDs` gives
  /// descriptor 1 or 2 (a pipe bench drains).
  public static func spawn(
    argv: [String], environment: [String: String], inheritedFDs: [Int32: Int32] = [:],
    logPath: String? = nil, errorLogPath: String? = nil
  ) throws(RunnerError) -> ChildProcess {
    precondition(!argv.isEmpty)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if inheritedFDs[1] == nil {
      let log = logPath ?? "/dev/null"
      posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    }
    if inheritedFDs[2] != nil {
      // Given below.
    } else if let errorLogPath {
      posix_spawn_file_actions_addopen(&actions, 2, errorLogPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    } else if inheritedFDs[1] == nil {
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    } else {
      // stdout is given below; stderr goes to the log, not to this process's own stdout.
      let log = logPath ?? "/dev/null"
      posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    }
    // A parent descriptor numbered like another one's target would be replaced by that `dup2`
    // before its own: such a one is copied above every target first (closed again after the spawn).
    let targets = Set(inheritedFDs.keys)
    var copies: [Int32] = []
    defer { copies.forEach { FileDescriptorIO.close($0) } }
    for (child, parent) in inheritedFDs.sorted(by: { $0.key < $1.key }) {
      var source = parent
      if parent != child && targets.contains(parent) {
        source = fcntl(parent, F_DUPFD_CLOEXEC, (targets.max() ?? 0) + 1)
        guard source >= 0 else {
          let error = Errno.current
          throw RunnerError(
            .spawnFailed, "cannot pass descriptor \(parent) on: \(error.message)", errno: error)
        }
        copies.append(source)
      }
      posix_spawn_file_actions_adddup2(&actions, source, child)
    }

    var attr = posix_spawnattr_t()
    posix_spawnattr_init(&attr)
    defer { posix_spawnattr_destroy(&attr) }
    posix_spawnattr_setpgroup(&attr, 0)
    // The runner ignores SIGINT/SIGTERM/SIGPIPE/SIGXFSZ for its own handling; children get defaults.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGXFSZ] { sigaddset(&defaults, sig) }
    posix_spawnattr_setsigdefault(&attr, &defaults)
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attr, &empty)
    posix_spawnattr_setflags(
      &attr, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let cArgs = argv.map { strdup($0) } + [nil]
    let cEnv = environment.sorted(by: { $0.key < $1.key }).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      cArgs.forEach { free($0) }
      cEnv.forEach { free($0) }
    }
    // The child exists only once the guard has been told of its group: a second Ctrl-C that
    // ends bench at once waits for this (``withNoSpawnInFlight(_:)``).
    let (pid, rc): (pid_t, Int32) = spawning.withLock { _ in
      var pid: pid_t = 0
      let rc = posix_spawn(&pid, argv[0], &actions, &attr, cArgs, cEnv)
      if rc == 0 { ProcessGuard.current.withLock { $0 }?.watch(group: pid) }
      return (pid, rc)
    }
    guard rc == 0 else {
      let error = Errno(rawValue: rc)
      throw RunnerError(.spawnFailed, "cannot start \(argv[0]): \(error.message)", errno: error)
    }
    return ChildProcess(pid: pid)
  }

  /// Held from `posix_spawn` until the new child's group is reported to the ``ProcessGuard``.
  private static let spawning = PThreadMutex<Void>(())

  /// Runs `body` while no child is being spawned: every child started so far has been reported
  /// to the ``ProcessGuard``, and none starts until `body` returns. Bench ends itself at once
  /// (the second Ctrl-C) inside it, so that no child can be left between its spawn and the
  /// guard's knowing of it (seen in the fault suite: the app of a run spawned at that moment
  /// outlived bench).
  public static func withNoSpawnInFlight<T>(_ body: () throws -> T) rethrows -> T {
    try spawning.withLock { _ in try body() }
  }

  /// Reaps the child if it has ended (then kills what it left in its process group); nil while
  /// it runs.
  public func poll() -> Termination? {
    var status: Int32 = 0
    do {
      if try SystemCall.retrying({ waitpid(pid, &status, WNOHANG) }) == 0 { return nil }
    } catch {
      return .exited(-1)  // already reaped (ECHILD)
    }
    kill(-pid, SIGKILL)  // anything the child left in its group
    ProcessGuard.current.withLock { $0 }?.release(group: pid)
    return Self.decode(status)
  }

  /// Waits up to `timeout` seconds for the child to end, checking every millisecond; nil if it
  /// is still running.
  public func wait(timeout: Double) -> Termination? {
    var ended: Termination?
    _ = MonotonicClock.sleep(until: MonotonicClock.now() &+ UInt64(timeout * 1e9), slice: 1_000_000) {
      ended = poll()
      return ended != nil
    }
    return ended
  }

  /// Sends `signal` to the child's whole process group.
  public func signalGroup(_ signal: Int32) {
    kill(-pid, signal)
    kill(pid, signal)
  }

  /// Stops the child: SIGTERM to its group, up to `grace` seconds, then SIGKILL; always reaps.
  @discardableResult
  public func terminate(grace: Double = 1.0) -> Termination {
    if let t = poll() { return t }
    signalGroup(SIGTERM)
    if let t = wait(timeout: grace) { return t }
    signalGroup(SIGKILL)
    return wait(timeout: 5) ?? .signaled(SIGKILL)
  }

  static func decode(_ status: Int32) -> Termination {
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros: spelled out.
    let sig = status & 0x7f
    if sig == 0 { return .exited((status >> 8) & 0xff) }
    return .signaled(sig)
  }
}
