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

  /// Whether the probe's error bound holds under every load level: each report (one per load
  /// level) has no violation, and there is at least one. `bench calibrate` exits 1 otherwise.
  public static func boundHolds(under reports: [CalibrationReport]) -> Bool {
    !reports.isEmpty && reports.allSatisfy { $0.violations.isEmpty }
  }

  /// The probe's error bound on `lagP99Milliseconds`: one refresh interval + 2 ms.
  public var lagBoundMilliseconds: Double { refreshIntervalMilliseconds + 2 }

  /// What breaks the probe's error bound, one line each; empty when it holds: no early detection,
  /// no miss, and a lag p99 of at most one refresh interval + 2 ms.
  public var violations: [String] {
    var out: [String] = []
    if early > 0 { out.append("\(early) early detection\(early == 1 ? "" : "s") (must be 0)") }
    if misses > 0 { out.append("\(misses) miss\(misses == 1 ? "" : "es") (must be 0)") }
    let bound = (lagBoundMilliseconds * 100).rounded() / 100
    if lagP99Milliseconds.isNaN {
      out.append("no trial measured a lag (the bound p99 ≤ \(bound) ms cannot be shown)")
    } else if lagP99Milliseconds > lagBoundMilliseconds {
      let p99 = (lagP99Milliseconds * 100).rounded() / 100
      out.append("lag p99 \(p99) ms is above one refresh + 2 ms = \(bound) ms")
    }
    return out
  }
}
