extension BenchResults {
  /// The keys of a run's per-run verification in `RunRecord.counts`
  /// (docs/conditions-and-phases.md, "Conditions"): what each run checked rather than assumed.
  public enum CountKey {
    /// 1 when the probe's thread (the compositor, or the X11 probe) ran with SCHED_FIFO, else 0.
    public static let realtimeCompositor = "realtime_compositor"
    /// 1 when the app's camera frame thread got real-time priority, 0 not; absent when unsaid.
    public static let realtimeCamera = "realtime_camera"
    /// The compositor's missed refresh deadlines during the run: scanouts latched half a refresh
    /// interval or more after their tick, plus ticks skipped. Absent on X11 (no refresh grid of
    /// the probe's own).
    public static let missedDeadlines = "missed_deadlines"
    /// Cold runs: the files the eviction advised out of the page cache.
    public static let evictedFiles = "evicted_files"
    /// Cold runs: the sizes of those files, bytes.
    public static let evictedBytes = "evicted_bytes"
    /// Cold runs: files the run's app had mapped by its first frame that the cold eviction does
    /// not cover (libraries opened with `dlopen` after the set was fixed, data files).
    public static let mappedNotEvicted = "mapped_not_evicted"
    /// Cold runs: 1 when all clean caches were dropped (`/proc/sys/vm/drop_caches`), else 0.
    public static let dropCaches = "drop_caches"
    /// The device's power-up (`device.power_up`): 1 cold, 0 warm; absent when the app did not say.
    public static let powerUpCold = "power_up_cold"
    /// 1 when the run's app ended holding the synthetic camera (killed, crashed, timed out) and
    /// bench recorded the device's release when it reaped the app; absent otherwise.
    public static let deviceReleasedByBench = "device_released_by_bench"
  }
}
