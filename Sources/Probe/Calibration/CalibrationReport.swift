/// The probe's detection error against ground truth, from `Calibration.run`.
public struct CalibrationReport: Sendable, Codable, Hashable {
  /// Whether CPU burners ran on every core during the trials.
  public var load: Bool
  /// Burner threads used (0 without load).
  public var loadThreads: Int
  /// The display's refresh rate, Hz.
  public var refreshHz: Double
  /// The refresh interval, ms.
  public var refreshIntervalMilliseconds: Double
  /// Whether the compositor thread ran under `SCHED_FIFO`.
  public var realtimeGranted: Bool
  /// Whether the light board decoded (false while its decoder is a placeholder).
  public var boardDecodes: Bool
  /// Trials run.
  public var trials: Int
  /// Detections before the first live frame was presented, or on a frame that was not live. Must be 0.
  public var early: Int
  /// Trials where no first live frame was found within 500 ms of the present. Must be 0.
  public var misses: Int
  /// Detection lag (scanout − ground-truth present), ms: median.
  public var lagP50Milliseconds: Double
  /// 99th percentile (nearest rank), ms.
  public var lagP99Milliseconds: Double
  /// Largest, ms.
  public var lagMaxMilliseconds: Double
  /// Detections per method (`board`, `change`).
  public var methods: [String: Int]
  /// Relock trials without a cover that reported stale frames, of how many.
  public var staleReportedWithoutCover: Int
  /// Relock trials without a cover.
  public var trialsWithoutCover: Int
  /// Relock trials with the black cover that reported stale frames (should be 0).
  public var staleReportedWithCover: Int
  /// The probe's mean analysis CPU per scanout during the trials, microseconds.
  public var analysisMicrosecondsPerScanout: Double
  /// The display path: `shm`, or `x11:NAME` (the X server calibrated on).
  public var display: String?
  /// The 99th-percentile lag the path must stay within, ms (X11: 4), if it has one.
  public var lagBoundMilliseconds: Double?
  /// X11: whether images crossed in shared memory (MIT-SHM) rather than through the socket.
  public var sharedMemoryImages: Bool?
  /// X11: whether the Xvfb that bench started got `SCHED_FIFO` (nil for a server it did not start).
  public var displayServerRealtime: Bool?
  /// X11: how many times smaller than the presented window, in each dimension, the images the
  /// probe analysed were (`X11WindowCapture.scale`: 2 for 640×480).
  public var x11ReadScale: Int?

  /// Whether the report passes: no early detection, no miss, and the lag within its bound.
  public var passes: Bool {
    early == 0 && misses == 0 && (lagBoundMilliseconds.map { !(lagP99Milliseconds > $0) } ?? true)
  }
}
