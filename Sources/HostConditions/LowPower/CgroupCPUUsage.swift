#if canImport(Glibc)
  import Glibc
#endif
import Subprocess
import SystemCalls

/// What a `low-power` run's capped app actually got of the CPU (issue 41 item 4): the CPU time
/// its cgroup's processes used from the spawn to the run's end, against the wall time in
/// between and the bandwidth periods the group ran in. The quota verified by what it did, not
/// by its files reading back: an app that got more CPU than the quota allows in those periods was
/// not held by it.
package struct CgroupCPUUsage: Sendable, Hashable {
  /// The CPU time the group's processes used, ns.
  package var cpuNanoseconds: Int
  /// The wall time from the spawn to the measurement, ns.
  package var wallNanoseconds: Int
  /// The group's bandwidth periods at the measurement (`nr_periods`).
  package var periods: Int
  /// Where the CPU time was read: `cpu.stat usage_usec` (cgroup v2), `cpuacct.usage` (v1 with
  /// `cpuacct` on the `cpu` hierarchy) or `/proc/<pid>/stat` (v1 without: `utime + stime +
  /// cutime + cstime` of the group's processes, clock ticks).
  package var source: String
  /// How many processes were read (`/proc/<pid>/stat`; 0 for the group's own counters).
  package var processes: Int

  /// The source that sums the group's processes from `/proc`.
  package static let procSource = "/proc/<pid>/stat"

  /// Creates a measurement.
  package init(cpuNanoseconds: Int, wallNanoseconds: Int, periods: Int, source: String, processes: Int) {
    self.cpuNanoseconds = cpuNanoseconds
    self.wallNanoseconds = wallNanoseconds
    self.periods = periods
    self.source = source
    self.processes = processes
  }

  /// The CPU the app got over its wall time, % of one CPU.
  package var percentOfOneCPU: Double {
    wallNanoseconds > 0 ? Double(cpuNanoseconds) * 100 / Double(wallNanoseconds) : 0
  }

  /// The most CPU `quota` lets the group use in ``periods`` periods, ns: the periods plus the two
  /// the measurement may straddle, plus 10 ms a CPU (the kernel's 5 ms bandwidth slice and a
  /// scheduler tick a CPU may run ahead of the quota before it is throttled) and, read from
  /// `/proc`, two clock ticks a process counted; and half of that again, for a guest whose clock
  /// runs on while its virtual CPU is not scheduled (an emulated VM on a loaded host charges that
  /// time to the task that was running). An app the quota does not hold gets twice its share or
  /// more at a quota of half a CPU, and more the smaller the quota.
  package func budgetNanoseconds(_ quota: CPUQuota) -> Int {
    let tick = 1_000_000_000 / max(Int(sysconf(Int32(_SC_CLK_TCK))), 1)
    let rounding = source == Self.procSource ? (processes + 1) * 2 * tick : 0
    let cpus = max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    return ((periods + 2) * quota.quotaMicroseconds * 1000 + cpus * 10_000_000 + rounding) * 3 / 2
  }
}

extension RunCgroup {
  /// The CPU the group's processes have used since `spawnedAt` (monotonic ns; the group is the
  /// run's own, made for it), read now, while the app still runs (the `/proc` fallback reads the
  /// group's live processes, with their exited threads and reaped children). Nil when no source
  /// can be read.
  package func measureCPU(since spawnedAt: UInt64) -> CgroupCPUUsage? {
    let now = MonotonicClock.now()
    let wall = Int(now > spawnedAt ? now - spawnedAt : 0)
    let stat = throttling()
    let periods = stat?.periods ?? 0
    if let usage = stat?.usageNanoseconds {
      return CgroupCPUUsage(
        cpuNanoseconds: usage, wallNanoseconds: wall, periods: periods, source: "cpu.stat usage_usec",
        processes: 0)
    }
    if let text = FileSystem.readText(atPath: directory + "/cpuacct.usage", maxBytes: 64),
      let usage = Int(text.trimmingWhitespace())
    {
      return CgroupCPUUsage(
        cpuNanoseconds: usage, wallNanoseconds: wall, periods: periods, source: "cpuacct.usage", processes: 0)
    }
    let pids = processIDs()
    let ticks = Self.processTicks(pids)
    guard ticks.processes > 0 else { return nil }
    let tick = 1_000_000_000 / max(Int(sysconf(Int32(_SC_CLK_TCK))), 1)
    return CgroupCPUUsage(
      cpuNanoseconds: ticks.total * tick, wallNanoseconds: wall, periods: periods,
      source: CgroupCPUUsage.procSource, processes: ticks.processes)
  }

  /// `utime + stime + cutime + cstime` (clock ticks) summed over `pids` from `/proc/<pid>/stat`,
  /// with how many were read (one that is gone is skipped).
  static func processTicks(_ pids: [pid_t]) -> (total: Int, processes: Int) {
    var total = 0
    var read = 0
    for pid in pids {
      guard let text = FileSystem.readText(atPath: "/proc/\(pid)/stat", maxBytes: 4096),
        let close = text.lastIndex(of: ")")
      else { continue }
      let fields = text[text.index(after: close)...].split(separator: " ")
      // After "pid (comm)": state is field 3; utime, stime, cutime, cstime 14–17 → 11–14 here.
      guard fields.count > 14 else { continue }
      let times = fields[11...14].compactMap { Int($0) }
      guard times.count == 4 else { continue }
      total += times.reduce(0, +)
      read += 1
    }
    return (total, read)
  }
}
