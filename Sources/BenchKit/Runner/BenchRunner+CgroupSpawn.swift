#if canImport(Glibc)
  import Glibc
#endif
import HostConditions
import Subprocess
import SystemCalls

extension BenchRunner {
  /// Spawns the app, in `group` when there is one: spawned into the cgroup, not moved after
  /// (issue 41 item 4). On cgroup v2 the child is born in the group (`clone3` with
  /// `CLONE_INTO_CGROUP`: placement `clone-into-cgroup`); on v1, and where the kernel cannot clone
  /// into a cgroup, it writes itself into the group's `cgroup.procs` first of all, before it execs
  /// (`before-exec`). Either way the app and whatever it forks run capped from their first
  /// instruction, and no thread of bench ever enters the group. The app runs as ``appIdentity``
  /// when there is one.
  /// - Throws: `RunnerError` when the spawn fails (the kernel refusing the child's entry into the
  ///   group among the reasons).
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
    let target: ProcessControl.ChildCgroup
    do {
      target = try group.openForJoining()
    } catch {
      // The group cannot be entered: the app runs uncapped, and the run fails with the reason.
      let child = try ChildProcess.spawn(
        argv: argv, environment: environment, inheritedFDs: inheritedFDs, user: appIdentity)
      return (child, CgroupPlacement(how: "before-exec", delayMicroseconds: nil, failure: error.description))
    }
    defer {
      FileDescriptorIO.close(target.processes)
      if let directory = target.directory { FileDescriptorIO.close(directory) }
    }
    let child = try ChildProcess.spawn(
      argv: argv, environment: environment, inheritedFDs: inheritedFDs, user: appIdentity, cgroup: target)
    return (
      child,
      CgroupPlacement(
        how: (child.cgroupEntry ?? .beforeExec).rawValue, delayMicroseconds: nil,
        failure: Self.absence(of: child.pid, from: group))
    )
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
