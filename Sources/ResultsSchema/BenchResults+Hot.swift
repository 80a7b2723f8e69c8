extension BenchResults {
  /// What the machine read at one moment of a `hot` run: thermal zones, CPU frequencies and
  /// pressure stall information, each absent when the machine does not have it.
  public struct HostReading: Codable, Sendable, Hashable {
    /// Every thermal zone's temperature, `thermal_zoneN` (its `type`, when it has one, after a
    /// colon) → °C (`/sys/class/thermal/thermal_zone*/temp`, millidegrees ÷ 1000). Absent without
    /// thermal zones.
    public var thermalCelsius: [String: Double]?
    /// Every CPU's current frequency, `cpuN` → kHz (`cpufreq/scaling_cur_freq`). Absent without
    /// cpufreq.
    public var frequenciesKHz: [String: Int]?
    /// PSI "some avg10", % (`/proc/pressure/cpu`); absent without PSI.
    public var psiCPU: Double?
    /// PSI "some avg10", % (`/proc/pressure/io`); absent without PSI.
    public var psiIO: Double?
    /// PSI "some avg10", % (`/proc/pressure/memory`); absent without PSI.
    public var psiMemory: Double?

    /// Creates a reading.
    public init(
      thermalCelsius: [String: Double]? = nil, frequenciesKHz: [String: Int]? = nil, psiCPU: Double? = nil,
      psiIO: Double? = nil, psiMemory: Double? = nil
    ) {
      self.thermalCelsius = thermalCelsius
      self.frequenciesKHz = frequenciesKHz
      self.psiCPU = psiCPU
      self.psiIO = psiIO
      self.psiMemory = psiMemory
    }
  }

  /// What a `hot` run's soak did and what the machine read around it (`RunRecord.hot`). Absent
  /// in the runs of every other condition.
  public struct HotRecord: Codable, Sendable, Hashable {
    /// How long the soak ran, s (from its burners' start to their stop, right before the spawn).
    public var soakSeconds: Double
    /// How many burners soaked (one per CPU bench may run on, as the loaded condition's).
    public var burners: Int
    /// The CPUs the burners were pinned to.
    public var cpus: [Int]
    /// Read before the soak started.
    public var beforeSoak: HostReading
    /// Read after the soak stopped, right before the spawn.
    public var atSpawn: HostReading
    /// Read when the probe saw the first live frame; absent when it saw none.
    public var atFirstFrame: HostReading?
    /// What this machine cannot read (`no thermal zones`, `no cpufreq`, `no PSI`), so a reader
    /// knows an absent figure is the machine's, not a fault; absent when it reads all three.
    public var missing: [String]?
    /// The first system-pressure level the app itself reported (`pressure.level`: its
    /// `SystemPressureMonitor` read the same PSI and thermal files); absent when it reported none
    /// during the run.
    public var appPressureLevel: String?
    /// The CPU time the soak's burners got, s, summed (their `schedstat`, read right before they
    /// were stopped): with ``soakSeconds`` × ``burners`` it says how much of their CPUs the soak
    /// really loaded. Absent in results written before it was measured (issue 41, item 4).
    public var burnerCPUSeconds: Double?
    /// The share of the soak the burners' CPUs were busy, whatever ran on them (`/proc/stat`'s
    /// time that was neither idle nor waiting for I/O, before and after the soak): on a machine
    /// busy with other work the CPUs are loaded though the burners got less of them. Absent in
    /// older results and where `/proc/stat` cannot be read.
    public var cpuBusyShare: Double?

    /// Creates a record.
    public init(
      soakSeconds: Double, burners: Int, cpus: [Int], beforeSoak: HostReading, atSpawn: HostReading,
      atFirstFrame: HostReading? = nil, missing: [String]? = nil, appPressureLevel: String? = nil
    ) {
      self.soakSeconds = soakSeconds
      self.burners = burners
      self.cpus = cpus
      self.beforeSoak = beforeSoak
      self.atSpawn = atSpawn
      self.atFirstFrame = atFirstFrame
      self.missing = missing
      self.appPressureLevel = appPressureLevel
    }
  }
}
