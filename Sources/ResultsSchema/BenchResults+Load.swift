extension BenchResults {
  /// The loaded condition's burners, as planned for the benchmark (`settings.load`).
  public struct LoadInfo: Codable, Sendable, Hashable {
    /// `--load`: `cpu` (spinning) or `memory` (streaming over a buffer bigger than the
    /// last-level cache).
    public var kind: String
    /// How many burner processes: one per CPU bench may run on (`sched_getaffinity`), at most
    /// the cgroup CPU quota rounded up.
    public var burners: Int
    /// The CPU each burner is pinned to (`sched_setaffinity`), one per burner.
    public var cpus: [Int]
    /// The tightest cgroup v2 CPU quota over bench's cgroup and its ancestors, as `cpu.max`
    /// says it (`QUOTA PERIOD`, µs); absent when none limits.
    public var cpuQuota: String?
    /// `memory`: the buffer each burner streams over, bytes.
    public var bufferBytes: Int?
    /// `memory`: the last-level cache size read from sysfs, bytes; absent when unreadable (the
    /// buffer then assumes 16 MiB).
    public var lastLevelCacheBytes: Int?

    /// Creates the record.
    public init(
      kind: String, burners: Int, cpus: [Int], cpuQuota: String?, bufferBytes: Int?, lastLevelCacheBytes: Int?
    ) {
      self.kind = kind
      self.burners = burners
      self.cpus = cpus
      self.cpuQuota = cpuQuota
      self.bufferBytes = bufferBytes
      self.lastLevelCacheBytes = lastLevelCacheBytes
    }
  }
}
