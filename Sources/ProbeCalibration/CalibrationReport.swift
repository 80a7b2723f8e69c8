import Probe

/// The probe's detection error against ground truth, from `Calibration.run`.
package struct CalibrationReport: Sendable, Codable, Hashable {
  /// Whether CPU burners ran on every core during the trials.
  package var load: Bool
  /// Burner threads used (0 without load).
  package var loadThreads: Int
  /// The display's refresh rate, Hz.
  package var refreshHz: Double
  /// The refresh interval, ms.
  package var refreshIntervalMilliseconds: Double
  /// Whether the compositor thread ran under `SCHED_FIFO`.
  package var realtimeGranted: Bool
  /// Whether the light board decoded (false while its decoder is a placeholder).
  package var boardDecodes: Bool
  /// Trials run.
  package var trials: Int
  /// Detections before the first live frame was presented, or on a frame that was not live. Must be 0.
  package var early: Int
  /// Trials where no first live frame was found within 500 ms of the present. Must be 0.
  package var misses: Int
  /// Detection lag (scanout − ground-truth present), ms: median.
  package var lagP50Milliseconds: Double
  /// 99th percentile (type 7, as the results tables: `Sampling.Percentile`), ms.
  package var lagP99Milliseconds: Double
  /// Largest, ms.
  package var lagMaxMilliseconds: Double
  /// Detections per method (`board`, `change`).
  package var methods: [String: Int]
  /// Relock trials without a cover that reported stale frames, of how many.
  package var staleReportedWithoutCover: Int
  /// Relock trials without a cover.
  package var trialsWithoutCover: Int
  /// Relock trials with the black cover that reported stale frames (should be 0).
  package var staleReportedWithCover: Int
  /// The probe's mean analysis CPU per scanout during the trials, microseconds.
  package var analysisMicrosecondsPerScanout: Double
  /// The display path: `shm`, or `x11:NAME` (the X server calibrated on).
  package var display: String?
  /// The 99th-percentile lag the trials are held to, ms, if the path has a bound: the path's own
  /// (`pathLagBoundMilliseconds`) plus the host's worst wake-up delay in the same trials
  /// (`hostWakeup`), set by `applyLagBound(path:host:)`.
  package var lagBoundMilliseconds: Double?
  /// Whether the presenter (the camera's stand-in) ran under `SCHED_FIFO`, as the camera's
  /// frame thread does where allowed.
  package var presenterRealtime: Bool?
  /// X11: whether images crossed in shared memory (MIT-SHM) rather than through the socket.
  package var sharedMemoryImages: Bool?
  /// X11: whether the Xvfb that bench started got `SCHED_FIFO` (nil for a server it did not start).
  package var displayServerRealtime: Bool?
  /// X11: how many times smaller than the presented window, in each dimension, the images the
  /// probe analysed were (`X11WindowCapture.scale`: 2 for 640×480).
  package var x11ReadScale: Int?
  /// Each missed trial, one line: its number, scenario and scene, what the probe saw after the
  /// arm, and how many fresh frames were presented over how long (nil when none was missed).
  package var missedTrials: [String]? = nil
  /// Trials where the presenter (the stand-in camera) could not keep the camera's cadence — two
  /// fresh frames further apart than the detector's reach (two frame intervals + one refresh) —
  /// and the probe found no first live frame: no evidence about the probe either way, so neither
  /// a miss nor a lag. One line each (nil when none). More than a third of the trials makes the
  /// calibration inconclusive (a violation).
  package var presenterLateTrials: [String]? = nil
  /// The path's own bound on the lag p99, ms: one refresh interval + 2 ms on shared memory
  /// (`Calibration.run`), 4 ms on X11 (no refresh grid). Nil in reports written before the host's
  /// wake-up latency was measured (their `lagBoundMilliseconds` is this alone).
  package var pathLagBoundMilliseconds: Double? = nil
  /// How late the host woke a thread at the compositor's priority during the same trials
  /// (`HostWakeupSampler`); nil when not measured.
  package var hostWakeup: HostWakeupReport? = nil

  /// Sets the bound on the lag p99: the path's own, `path` ms, plus the host's wake-up allowance
  /// measured in the same trials (`host.allowanceMilliseconds`; nothing without a measurement).
  ///
  /// Why not the host's p99: every trial's lag holds at least one wake-up at the compositor's
  /// tick, and the p99 of a few dozen trials is in effect their largest, so a host whose rare
  /// wake-up delays exceed a margin fails the bound by chance about trials × their rarity often.
  /// The allowance is the delay that `trials` wake-ups all stay under 99 % of the time, read
  /// from the samplers' thousands of wake-ups in the same window.
  package mutating func applyLagBound(path: Double, host: HostWakeupReport?) {
    pathLagBoundMilliseconds = path
    hostWakeup = host
    let allowance = host.map(\.allowanceMilliseconds).flatMap { $0.isNaN ? nil : $0 } ?? 0
    lagBoundMilliseconds = path + allowance
  }

  /// Whether the probe's error bound holds under every load level: each report (one per load
  /// level) has no violation, and there is at least one. `bench calibrate` exits 1 otherwise.
  package static func boundHolds(under reports: [CalibrationReport]) -> Bool {
    !reports.isEmpty && reports.allSatisfy(\.passes)
  }

  /// Whether the report passes: no early detection, no miss, and the lag within its bound.
  package var passes: Bool { violations.isEmpty }

  /// What breaks the probe's error bound, one line each; empty when it holds: no early detection,
  /// no miss, and (where the path has a bound) a lag p99 within `lagBoundMilliseconds`.
  package var violations: [String] {
    var out: [String] = []
    if early > 0 { out.append("\(early) early detection\(early == 1 ? "" : "s") (must be 0)") }
    if misses > 0 {
      let which = (missedTrials ?? []).isEmpty ? "" : ": " + (missedTrials ?? []).joined(separator: "; ")
      out.append("\(misses) miss\(misses == 1 ? "" : "es") (must be 0)\(which)")
    }
    let late = presenterLateTrials ?? []
    if !late.isEmpty && late.count * 3 > trials {
      out.append(
        "inconclusive: in \(late.count) of \(trials) trials the presenter could not keep the camera's cadence ("
          + late.joined(separator: "; ") + ")")
    }
    guard let limit = lagBoundMilliseconds else { return out }
    func r2(_ v: Double) -> Double { (v * 100).rounded() / 100 }
    let bound = r2(limit)
    let path = refreshHz > 0 ? "one refresh + 2 ms" : "\(r2(pathLagBoundMilliseconds ?? limit)) ms"
    let named =
      hostWakeup.map { "\(path) + host wake-up allowance \(r2($0.allowanceMilliseconds)) ms = \(bound) ms" }
      ?? (refreshHz > 0 ? "one refresh + 2 ms = \(bound) ms" : "the bound \(bound) ms")
    if lagP99Milliseconds.isNaN {
      out.append("no trial measured a lag (the bound p99 ≤ \(bound) ms cannot be shown)")
    } else if lagP99Milliseconds > limit {
      let p99 = (lagP99Milliseconds * 100).rounded() / 100
      out.append("lag p99 \(p99) ms is above \(named)")
    }
    return out
  }
}
