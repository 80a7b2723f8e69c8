import Probe
import Sampling

extension Calibration {
  /// What the trials found, trial by trial: the counts and lags `CalibrationReport` is made of.
  struct TrialTally {
    /// Detection lags, ms: the first live frame's scanout after the first fresh frame's present.
    var lags: [Double] = []
    /// Trials whose first live frame came before the first fresh frame, or was not a fresh one.
    var early = 0
    /// Trials in which the probe found no first live frame.
    var misses = 0
    /// What happened in each missed trial.
    var missedTrials: [String] = []
    /// Trials in which the presenter fell behind the camera's cadence (neither a miss nor a lag).
    var presenterLateTrials: [String] = []
    /// `FirstLiveFrame.method` → how many first live frames it found.
    var methods: [String: Int] = [:]
    /// Relocks without a cover in which the probe reported stale frames.
    var staleWithout = 0
    /// Relocks without a cover.
    var trialsWithout = 0
    /// Relocks with the black cover in which the probe reported stale frames.
    var staleWith = 0

    /// Counts a first live frame found on an image that `shownWasFresh` or not.
    mutating func record(_ first: FirstLiveFrame, firstPresent: UInt64, shownWasFresh: Bool) {
      if first.scanoutTime < firstPresent || !shownWasFresh {
        early += 1
      } else {
        lags.append(Double(first.scanoutTime - firstPresent) / 1e6)
      }
      methods[first.method.rawValue, default: 0] += 1
    }

    /// Counts the stale frames the probe reported in a relock trial, with or without the cover.
    mutating func recordStaleFrames(_ staleFrames: Int, in scenario: Scenario) {
      switch scenario {
      case .relockWithCover: if staleFrames > 0 { staleWith += 1 }
      case .relockWithoutCover:
        trialsWithout += 1
        if staleFrames > 0 { staleWithout += 1 }
      default: break
      }
    }

    /// The report of `settings.trials` trials on `display`, watched by `monitor`.
    func report(
      _ settings: CalibrationSettings, monitor: DisplayMonitor, display: String, loadThreads: Int,
      presenterRealtime: Bool
    ) -> CalibrationReport {
      let lags = lags.sorted()
      let final = monitor.snapshot()
      return CalibrationReport(
        load: settings.load, loadThreads: loadThreads, refreshHz: settings.refreshHz,
        refreshIntervalMilliseconds: Double(monitor.refreshIntervalNanoseconds) / 1e6,
        realtimeGranted: monitor.realtimeGranted,
        boardDecodes: CalibrationScene.boardDecodes, trials: settings.trials, early: early, misses: misses,
        lagP50Milliseconds: Calibration.lagPercentile(sorted: lags, 0.5),
        lagP99Milliseconds: Calibration.lagPercentile(sorted: lags, 0.99),
        lagMaxMilliseconds: lags.last ?? .nan,
        methods: methods, staleReportedWithoutCover: staleWithout, trialsWithoutCover: trialsWithout,
        staleReportedWithCover: staleWith,
        analysisMicrosecondsPerScanout: final.analysisMicrosecondsPerScanout,
        display: display, presenterRealtime: presenterRealtime,
        missedTrials: missedTrials.isEmpty ? nil : missedTrials,
        presenterLateTrials: presenterLateTrials.isEmpty ? nil : presenterLateTrials)
    }
  }
}
