/// The seeds' test matrix (docs/conditions-and-phases.md, "Conditions"), spelled as on the command line.
public enum LaunchCondition: String, Sendable, Hashable, CaseIterable, Codable {
  /// Previous app killed and verified gone; executable and libraries evicted from the page
  /// cache; the synthetic device cold.
  case cold
  /// A fresh process right after the last; caches warm; device recently closed.
  case warm
  /// One app process per cell: lock (cover + stop session), wait, unlock; measured from unlock.
  case relock
  /// As warm, with one CPU-burner process per core for the whole cell.
  case loaded
  /// As warm, with the app's CPU capped: cpufreq's governor, `energy_performance_preference` and
  /// `scaling_max_freq` where writable, else a CPU quota on the run's own cgroup; the cap is
  /// read back per run (a laptop's power-saver profile, a phone's Low Power Mode).
  case lowPower = "low-power"
  /// As warm, after a soak of sustained load on every CPU bench may use, ended right before the
  /// spawn (a device that has been recording for a minute); thermal, frequency and pressure
  /// readings recorded per run where the machine has them.
  case hot

  /// Whether each run starts a new app process (all but relock, which measures from unlock).
  public var launchesProcess: Bool { self != .relock }

  /// The conditions `bench` runs without `--conditions`: cold, warm, relock and loaded.
  /// `low-power` and `hot` are asked for by name: `hot` soaks for a minute before every run, and
  /// `low-power` changes the machine's CPU settings or cgroups while it runs.
  public static let defaultSet: [LaunchCondition] = [.cold, .warm, .relock, .loaded]
}
