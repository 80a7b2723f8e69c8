extension BenchResults {
  /// What a `low-power` run applied to cap the CPU and what it read back to show the cap took
  /// effect (`RunRecord.lowPower`). Absent in the runs of every other condition.
  public struct LowPowerRecord: Codable, Sendable, Hashable {
    /// How the CPU was capped: `cpufreq` (the governor, `energy_performance_preference` and
    /// `scaling_max_freq`, as a power profile sets them), `cgroup-v1-quota`
    /// (`cpu.cfs_quota_us` / `cpu.cfs_period_us`) or `cgroup-v2-quota` (`cpu.max`).
    public var method: String
    /// Whether the cap was read back in force for this run; a run whose cap did not take effect
    /// fails with ``reason``.
    public var verified: Bool
    /// Why the cap did not take effect (or what was not verified); absent when verified.
    public var reason: String?
    /// Quota: the run's own cgroup, as a path under the controller's mount
    /// (`/firstframe-<bench pid>-<run>`).
    public var cgroup: String?
    /// Quota: CPU time the app's cgroup may use per period, µs, as read back from the kernel.
    public var quotaMicroseconds: Int?
    /// Quota: the period, µs, as read back.
    public var periodMicroseconds: Int?
    /// Quota: how the app entered its cgroup: `clone-into-cgroup` (cgroup v2: the child was born
    /// in the cgroup, `clone3` with `CLONE_INTO_CGROUP`), `before-exec` (cgroup v1, or a kernel
    /// without `CLONE_INTO_CGROUP`: the spawned child wrote itself into the cgroup before it
    /// execed; either way the app's first instruction ran capped) or, in results of
    /// bench before issue 41 on cgroup v2, `after-spawn` (its pid written into `cgroup.procs`
    /// once `posix_spawn` returned: the app ran uncapped for ``placementDelayMicroseconds``).
    public var placement: String?
    /// Quota, `after-spawn`: from `posix_spawn`'s return to the pid's write, µs.
    public var placementDelayMicroseconds: Int?
    /// Quota: the bandwidth periods the group was runnable in during the run (`cpu.stat`
    /// `nr_periods`, at the run's end: the group is the run's own).
    public var periods: Int?
    /// Quota: the periods the group was throttled in (`cpu.stat` `nr_throttled`).
    public var throttledPeriods: Int?
    /// Quota: the time the group's tasks spent throttled, ms (`cpu.stat` `throttled_time`, ns,
    /// on cgroup v1; `throttled_usec` on v2).
    public var throttledMs: Double?
    /// Quota: the CPU time the app's cgroup got from the spawn to the run's end, ms, measured
    /// while the app ran (issue 41 item 4): a run that got more than the quota allows in its
    /// ``periods`` fails.
    public var cpuMs: Double?
    /// Quota: ``cpuMs`` over the wall time from the spawn to the run's end, % of one CPU: the
    /// throughput the capped app actually got, against the quota's share.
    public var cpuPercent: Double?
    /// Quota: where ``cpuMs`` was read: `cpu.stat usage_usec` (cgroup v2), `cpuacct.usage` (v1
    /// with `cpuacct` on the `cpu` hierarchy) or `/proc/<pid>/stat` (v1 without: the group's
    /// processes' `utime + stime + cutime + cstime`, 10 ms clock ticks).
    public var cpuSource: String?
    /// cpufreq: the ceiling written into every CPU's `scaling_max_freq`, kHz.
    public var maxFrequencyKHz: Int?
    /// cpufreq: the governor written (`powersave`), when the CPU offers it.
    public var governor: String?
    /// cpufreq: the `energy_performance_preference` written (`power`), when the CPU has one.
    public var energyPerformancePreference: String?
    /// cpufreq: each CPU's `scaling_cur_freq` at the run's end, kHz, `cpuN` → kHz.
    public var frequenciesKHz: [String: Int]?

    /// Creates a record for `method`; the rest is filled in by the runner.
    public init(method: String, verified: Bool, reason: String? = nil) {
      self.method = method
      self.verified = verified
      self.reason = reason
    }
  }
}
