extension BenchResults {
  /// The machine, and what it allowed.
  public struct HostInfo: Codable, Sendable, Hashable {
    /// The machine's host name (`ProcessInfo.hostName`).
    public var hostname: String
    /// The kernel release, as `uname -r` prints it (`uname(2)`'s `release`).
    public var kernel: String
    /// CPUs online when the benchmark started (`sysconf(_SC_NPROCESSORS_ONLN)`).
    public var cpus: Int
    /// Whether the probe's thread — the compositor (shm) or the X11 probe — got SCHED_FIFO in at
    /// least one run.
    public var realtimeCompositor: Bool
    /// How cold runs evicted caches: `fadvise` or `fadvise+drop_caches`.
    public var cacheEviction: String
    /// The CPU frequency governor of cpu0 (`scaling_governor` in sysfs, e.g. `performance`), when
    /// the kernel exposes it.
    public var governor: String?
    /// The machine's identity (`/etc/machine-id`, else `/var/lib/dbus/machine-id`): a stored
    /// baseline from another machine is refused. Absent when neither file exists.
    public var machineId: String?
    /// The CPU's model name (`model name` in `/proc/cpuinfo`), when the kernel says.
    public var cpuModel: String?
    /// Whether the app's camera frame thread got real-time priority in at least one run (its
    /// `device.realtime_priority` event, field `granted`); absent when the app never said.
    public var realtimeCamera: Bool?
    /// Creates the record.
    public init(
      hostname: String, kernel: String, cpus: Int, realtimeCompositor: Bool, cacheEviction: String,
      governor: String? = nil, machineId: String? = nil, cpuModel: String? = nil, realtimeCamera: Bool? = nil
    ) {
      self.hostname = hostname
      self.kernel = kernel
      self.cpus = cpus
      self.realtimeCompositor = realtimeCompositor
      self.cacheEviction = cacheEviction
      self.governor = governor
      self.machineId = machineId
      self.cpuModel = cpuModel
      self.realtimeCamera = realtimeCamera
    }
  }
}
