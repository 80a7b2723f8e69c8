/// Every key of a run's `counts` in `results.json` (`RunRecord.counts`): what each run counted,
/// and what it checked rather than assumed (docs/conditions-and-phases.md, "Conditions"). The runner writes them and the
/// reports read them through this one list; the raw values are the JSON keys, unchanged.
public enum CountKey: String, CaseIterable, Sendable {
  /// Scanouts that repeated a frame the app had already presented (`display.stale_frame`).
  case staleFrames = "stale_frames"
  /// Frames the probe saw skipped (`display.dropped_frame`).
  case droppedFrames = "dropped_frames"
  /// Lines of the app's trace that did not parse.
  case malformedTraceLines = "malformed_trace_lines"
  /// Lines of the app's trace dropped over the reader's cap.
  case droppedTraceLines = "dropped_trace_lines"
  /// Bytes of the app's trace left unread at the run's end.
  case unreadTraceBytes = "unread_trace_bytes"
  /// Control commands to the app that could not be sent.
  case controlCommandsDropped = "control_commands_dropped"
  /// Events in the app's trace under a name owned by the runner or the probe: ignored, counted.
  case forgedEvents = "forged_events"
  /// Light boards whose capture time was after the scanout that showed them — more than 1 ms
  /// after (`display.forged_board`), or any amount for the first live frame (a negative
  /// `glass_to_glass_ms`): drawn, not captured. Any makes the run fail.
  case forgedBoards = "forged_boards"
  /// The light-board feeder's format follows that overlapped the run (with `--feed-light-board`).
  case feedFollows = "feed_follows"
  /// 1 when the probe found the first live frame by change detection alone, 0 by the light board.
  case firstFrameByChange = "first_frame_by_change"
  /// Bytes of the app's standard output and error dropped over the capture cap.
  case appOutputDroppedBytes = "app_output_dropped_bytes"
  /// 1 when the probe's thread (the compositor, or the X11 probe) ran with SCHED_FIFO, else 0.
  case realtimeCompositor = "realtime_compositor"
  /// 1 when the app's camera frame thread got real-time priority, 0 not; absent when unsaid.
  case realtimeCamera = "realtime_camera"
  /// The compositor's missed refresh deadlines during the run: scanouts latched half a refresh
  /// interval or more after their tick, plus ticks skipped. Absent on X11 (no refresh grid of
  /// the probe's own).
  case missedDeadlines = "missed_deadlines"
  /// Cold runs: the files the eviction advised out of the page cache.
  case evictedFiles = "evicted_files"
  /// Cold runs: the sizes of those files, bytes.
  case evictedBytes = "evicted_bytes"
  /// Cold runs: files the run's app had mapped by its first frame that the cold eviction does
  /// not cover (libraries opened with `dlopen` after the set was fixed, data files).
  case mappedNotEvicted = "mapped_not_evicted"
  /// Cold runs: 1 when all clean caches were dropped (`/proc/sys/vm/drop_caches`), else 0.
  case dropCaches = "drop_caches"
  /// The device's power-up (`device.power_up`): 1 cold, 0 warm; absent when the app did not say.
  case powerUpCold = "power_up_cold"
  /// 1 when the run's app ended holding the synthetic camera (killed, crashed, timed out) and
  /// bench recorded the device's release when it reaped the app; absent otherwise.
  case deviceReleasedByBench = "device_released_by_bench"
  /// Live processes the run's app left outside its process group (`setsid`, a double fork) that
  /// bench, their child subreaper, found at the run's end, then killed and reaped; 0 when none.
  /// Absent when bench could not become a subreaper (docs/reliability.md, "Escaped processes").
  case escapedProcesses = "escaped_processes"
}

extension Dictionary where Key == String, Value == Int {
  /// A run's count under `key` (`RunRecord.counts`), nil when the run did not record it.
  package subscript(_ key: CountKey) -> Int? {
    get { self[key.rawValue] }
    set { self[key.rawValue] = newValue }
  }
}
