#if canImport(Glibc)
  import Glibc
#endif
import HostConditions
import Subprocess
import SystemCalls

extension BenchRunner {
  /// Spawns the app, in `group` when there is one. cgroup v1: the calling thread enters the
  /// group, spawns (the child starts in its parent thread's cgroup, so the app's first
  /// instruction runs capped) and leaves again; no other thread of bench is moved (v1 keeps
  /// threads' cgroups apart). cgroup v2: the
  /// pid goes into `cgroup.procs` right after `posix_spawn` returns; the time in between is
  /// recorded as the placement's delay. The app runs as ``appIdentity`` when there is one.
  /// - Throws: `RunnerError` when the spawn fails (the thread is back in bench's cgroup).
  func spawn(
    argv: [String], environment: [String: String], inheritedFDs: [Int32: Int32], into group: RunCgroup?
  )
    throws(RunnerError) -> (ChildProcess, CgroupPlacement?)
  {
    guard let group else {
      return (
        try ChildProcess.spawn(
          argv: argv, environment: environment, inheritedFDs: inheritedFDs, user: appIdentity), nil
      )
    }
    if group.controller.version == .v1 {
      var failure: String?
      do throws(CPUCapError) { try group.enterForSpawn() } catch { failure = error.description }
      defer { if failure == nil { group.leaveAfterSpawn() } }
      let child = try ChildProcess.spawn(
        argv: argv, environment: environment, inheritedFDs: inheritedFDs, user: appIdentity)
      if failure == nil { failure = Self.absence(of: child.pid, from: group) }
      return (child, CgroupPlacement(how: "before-exec", delayMicroseconds: nil, failure: failure))
    }
    let child = try ChildProcess.spawn(
      argv: argv, environment: environment, inheritedFDs: inheritedFDs, user: appIdentity)
    let returned = MonotonicClock.now()
    var failure: String?
    do throws(CPUCapError) { try group.adopt(child.pid) } catch { failure = error.description }
    let delay = Int((MonotonicClock.now() - returned) / 1000)
    if failure == nil { failure = Self.absence(of: child.pid, from: group) }
    return (child, CgroupPlacement(how: "after-spawn", delayMicroseconds: delay, failure: failure))
  }

  /// The user the app is spawned as when bench is root and the app is not (``AppUser``); nil:
  /// bench's own.
  var appIdentity: UserIdentity? {
    guard let user = settings.appUser, user.dropsPrivileges else { return nil }
    return user.identity
  }

  /// Why `pid` is not in `group` right after the spawn, or nil when it is (read from the group's
  /// `cgroup.procs`).
  static func absence(of pid: pid_t, from group: RunCgroup) -> String? {
    group.processIDs().contains(pid) ? nil : "the app (pid \(pid)) was not in \(group.path) after the spawn"
  }
}
