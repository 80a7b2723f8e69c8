#if canImport(Glibc)
  import Glibc
#endif
import Subprocess
import SystemCalls

/// One `low-power` run's own cgroup (`firstframe-<bench pid>-<run>` under bench's cgroup), with
/// a CPU quota: the app is put into it for the launch, its throttling is read back at the end,
/// and it is removed afterwards. A bench killed in between leaves it to its process guard, which
/// kills the app's group and then removes the folder (``ProcessGuard/removeDirectoryOnExit(_:)``),
/// and as a last resort to the next bench (``CgroupCPUController/removeStaleGroups(claims:)``).
///
/// The app is in it from its first instruction, on cgroup v1 and v2: on v2 the child is born in
/// the group (`clone3` with `CLONE_INTO_CGROUP`, ``openForJoining()``); on v1, and where the
/// kernel cannot clone into a cgroup, it writes itself into the group's `cgroup.procs` before it
/// execs. Either way the app and all it forks run capped from the start (issue 41 item 4).
package struct RunCgroup: Sendable, Hashable {
  /// The hierarchy it is in.
  package var controller: CgroupCPUController
  /// Its folder name.
  package var name: String

  /// Its folder.
  package var directory: String { controller.ownDirectory + "/" + name }
  /// Its path under the hierarchy's mount, as results record it.
  package var path: String { (controller.ownPath == "/" ? "" : controller.ownPath) + "/" + name }

  /// Creates the group and sets its quota. A group of the same name left by an earlier attempt
  /// is reused.
  /// - Throws: `CPUCapError` when the folder cannot be made or the quota is refused (the group
  ///   is removed again).
  package static func create(
    in controller: CgroupCPUController, name: String, quota: CPUQuota
  ) throws(CPUCapError) -> RunCgroup {
    let group = RunCgroup(controller: controller, name: name)
    try controller.enableCPUForChildren()
    // The guard is told before the folder exists: a bench killed right after the mkdir leaves it
    // to the guard to remove.
    ProcessGuard.running?.removeDirectoryOnExit(group.directory)
    do {
      try FileSystem.createDirectory(atPath: group.directory, mode: 0o755)
    } catch {
      ProcessGuard.running?.keep(group.directory)
      throw CPUCapError("cannot make the run's cgroup", path: group.directory, errno: error)
    }
    do throws(CPUCapError) {
      try group.setQuota(quota)
    } catch {
      group.remove()
      throw error
    }
    return group
  }

  /// Writes `quota`: v1 the period then the quota (`cpu.cfs_period_us`, `cpu.cfs_quota_us`), v2
  /// `cpu.max` (`QUOTA PERIOD`).
  func setQuota(_ quota: CPUQuota) throws(CPUCapError) {
    let writes: [(String, String)] =
      controller.version == .v1
      ? [
        ("cpu.cfs_period_us", "\(quota.periodMicroseconds)"),
        ("cpu.cfs_quota_us", "\(quota.quotaMicroseconds)"),
      ]
      : [("cpu.max", quota.text)]
    for (file, value) in writes {
      do {
        try FileSystem.writeControlFile(value + "\n", atPath: directory + "/" + file)
      } catch {
        throw CPUCapError("cannot write \(file) = \(value)", path: directory + "/" + file, errno: error)
      }
    }
  }

  /// The quota the kernel holds for the group, read back; nil when unreadable or unlimited.
  package func readQuota() -> CPUQuota? {
    switch controller.version {
    case .v1:
      guard let q = FileSystem.readText(atPath: directory + "/cpu.cfs_quota_us", maxBytes: 64),
        let p = FileSystem.readText(atPath: directory + "/cpu.cfs_period_us", maxBytes: 64)
      else { return nil }
      return CPUQuota.parse(cpuMax: q.trimmingWhitespace() + " " + p.trimmingWhitespace())
    case .v2:
      return FileSystem.readText(atPath: directory + "/cpu.max", maxBytes: 256).flatMap(
        CPUQuota.parse(cpuMax:))
    }
  }

  /// The group's bandwidth counters now (`cpu.stat`); nil when unreadable.
  package func throttling() -> CPUThrottling? {
    FileSystem.readText(atPath: directory + "/cpu.stat", maxBytes: 4096).flatMap(CPUThrottling.parse)
  }

  /// The pids in the group now (`cgroup.procs`).
  package func processIDs() -> [pid_t] {
    let text = FileSystem.readText(atPath: directory + "/cgroup.procs", maxBytes: 1 << 20) ?? ""
    return text.split(separator: "\n").compactMap { pid_t($0) }
  }

  /// Opens what a child needs to start in the group (`ChildProcess.spawn(…cgroup:)`, issue 41
  /// item 4: spawned into the cgroup, not moved after): its `cgroup.procs` for writing, and on
  /// cgroup v2 its folder, which the child is cloned into. The caller closes both after the spawn.
  /// - Throws: `CPUCapError` when either cannot be opened.
  package func openForJoining() throws(CPUCapError) -> ProcessControl.ChildCgroup {
    let processes: Int32
    do throws(Errno) {
      processes = try FileSystem.openControlFileForWriting(atPath: directory + "/cgroup.procs")
    } catch {
      throw CPUCapError(
        "cannot open the run's cgroup for the app", path: directory + "/cgroup.procs", errno: error)
    }
    guard controller.version == .v2 else {
      return ProcessControl.ChildCgroup(processes: processes, directory: nil)
    }
    do throws(Errno) {
      return ProcessControl.ChildCgroup(
        processes: processes, directory: try FileSystem.openDirectory(atPath: directory))
    } catch {
      FileDescriptorIO.close(processes)
      throw CPUCapError("cannot open the run's cgroup for the app", path: directory, errno: error)
    }
  }

  /// Moves the process `pid` (all its threads) into the group (`cgroup.procs`).
  /// - Throws: `CPUCapError` when the kernel refuses.
  package func adopt(_ pid: pid_t) throws(CPUCapError) {
    do {
      try FileSystem.writeControlFile("\(pid)\n", atPath: directory + "/cgroup.procs")
    } catch {
      throw CPUCapError(
        "cannot move the app into the run's cgroup", path: directory + "/cgroup.procs", errno: error)
    }
  }

  /// Removes the group: any process still in it goes back to bench's own cgroup first, then the
  /// folder is removed (`rmdir`). Returns whether it is gone.
  @discardableResult
  package func remove() -> Bool {
    for pid in processIDs() {
      try? FileSystem.writeControlFile("\(pid)\n", atPath: controller.ownDirectory + "/cgroup.procs")
    }
    do {
      try FileSystem.removeDirectory(atPath: directory)
      ProcessGuard.running?.keep(directory)
      return true
    } catch {
      guard error == Errno(rawValue: ENOENT) else { return false }
      ProcessGuard.running?.keep(directory)
      return true
    }
  }
}

/// A cgroup's CPU bandwidth counters (`cpu.stat`).
package struct CPUThrottling: Sendable, Hashable {
  /// Enforcement periods in which the group was runnable (`nr_periods`).
  package var periods: Int
  /// Periods in which it was throttled (`nr_throttled`).
  package var throttledPeriods: Int
  /// Time its tasks spent throttled, ns (v1 `throttled_time`; v2 `throttled_usec` × 1000).
  package var throttledNanoseconds: Int
  /// CPU time the group's tasks used, ns (v2 `usage_usec` × 1000); nil on v1, whose `cpu.stat`
  /// has none.
  package var usageNanoseconds: Int? = nil

  /// Parses `cpu.stat`'s `KEY VALUE` lines; nil when `nr_periods` is not there.
  package static func parse(_ text: String) -> CPUThrottling? {
    var values: [Substring: Int] = [:]
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      if words.count == 2, let value = Int(words[1]) { values[words[0]] = value }
    }
    guard let periods = values["nr_periods"] else { return nil }
    let ns = values["throttled_time"] ?? values["throttled_usec"].map { $0 * 1000 } ?? 0
    return CPUThrottling(
      periods: periods, throttledPeriods: values["nr_throttled"] ?? 0, throttledNanoseconds: ns,
      usageNanoseconds: values["usage_usec"].map { $0 * 1000 })
  }
}
