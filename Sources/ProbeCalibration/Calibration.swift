import CaptureKit
import Display
import Foundation
import Probe
import Sampling
import Synchronization
import SystemCalls

/// Settings for `Calibration.run`.
package struct CalibrationSettings: Sendable, Hashable {
  /// The display's refresh rate, Hz.
  package var refreshHz: Double = 60
  /// Trials (simulated launches and relocks, in turn).
  package var trials: Int = 60
  /// The surface size, pixels.
  package var width: Int = 640
  /// The surface size, pixels.
  package var height: Int = 480
  /// The presenter's camera frame rate, frames per second.
  package var cameraFrameRate: Double = 30
  /// Whether to run CPU burners on every core during the trials.
  package var load: Bool = false
  /// The seed of the trial schedule.
  package var seed: UInt64 = 2026
  /// Whether to keep the digest of every presented frame (the X11 path's ground truth), and as
  /// read at which scale (`ImageDigest.subsampled`); nil: none.
  var digestScale: Int?

  /// The defaults: 60 Hz, 60 trials, 640×480, 30 fps, no load.
  package init() {}
}

/// Calibrates the probe against ground truth through the real display path: a presenter (the
/// calling thread) writes known frames at known times into a real shared-memory surface with
/// `SharedMemoryDisplay`; the real compositor and detector (`DisplayMonitor`) look for the first
/// live frame; the report compares what they found with what was presented.
///
/// Trials rotate through six scenarios — a launch (black until the first frame), a relock with
/// the black cover, a relock without a cover (the frozen pre-lock frame stays on screen after the
/// unlock), and three meant to fool change detection: a launch that shows a static splash image
/// first, a relock that shows a frame captured before the unlock first, and a relock whose
/// non-black cover (the last frame, dimmed) is lifted at unlock to show the last pre-lock frame
/// again (each trick stays on screen 150–250 ms) — and three scenes (light board, moving
/// pattern, low-contrast pattern), with noise sigma 8 on every other trial.
package enum Calibration {
  enum Scenario: Int, CaseIterable {
    case launch, relockWithCover, relockWithoutCover, launchWithSplash, relockWithFrameInFlight
    case relockWithLiftedCover

    var isLaunch: Bool { self == .launch || self == .launchWithSplash }
  }

  /// The `SCHED_FIFO` priority the presenter asks for: the synthetic camera's frame thread's
  /// (`FrameStream.realtimePriority`), below the compositor's.
  static let presenterPriority: Int32 = 5

  /// Runs the trials; with `settings.load`, burner threads spin on every core until it returns.
  package static func run(_ settings: CalibrationSettings) throws(DisplayError) -> CalibrationReport {
    let monitor = try DisplayMonitor(
      width: settings.width, height: settings.height, refreshHz: settings.refreshHz,
      configuration: DetectorConfiguration(
        cameraFrameIntervalNanoseconds: UInt64(1e9 / settings.cameraFrameRate),
        refreshIntervalNanoseconds: nil))
    defer { monitor.stop() }
    let display = try SharedMemoryDisplay.open(descriptor: monitor.surfaceDescriptor)
    defer { display.close() }
    var report = trials(settings, monitor: monitor, presenter: display, display: "shm") { firstFresh, _ in
      monitor.firstLiveGroundTruth.map { !$0.isBlack && $0.frameSequence >= firstFresh } ?? false
    }
    report.lagBoundMilliseconds = report.refreshIntervalMilliseconds + 2
    return report
  }

  /// The trials, on any display path: `presenter` publishes known frames into the display
  /// `monitor` watches; `freshShown(firstFreshSequence, presented)` says from ground truth
  /// whether the image the first live frame was found on was a fresh one (`presented` maps the
  /// digest of every frame presented in the trial, `ImageDigest`, to its sequence number).
  static func trials(
    _ settings: CalibrationSettings, monitor: DisplayMonitor, presenter: some CalibrationPresenter,
    display: String, freshShown: (UInt64, [UInt64: UInt64]) -> Bool
  ) -> CalibrationReport {
    let burners = settings.load ? BurnerThreads(threads: ProcessInfo.processInfo.activeProcessorCount) : nil
    defer { burners?.stop() }
    // The presenter stands in for the camera's frame thread, which presents each preview frame
    // synchronously and runs under SCHED_FIFO where allowed (the synthetic camera asks for
    // priority 5): a presenter starved by the burners would not keep the camera's cadence, and
    // the calibration would measure its lateness instead of the probe's.
    let presenterRealtime = SystemThread.requestRealtime(priority: presenterPriority)
    defer { if presenterRealtime { SystemThread.dropRealtime() } }

    // No refresh grid on X11: wait as long as a 60 Hz screen would.
    let refresh = monitor.refreshIntervalNanoseconds > 0 ? monitor.refreshIntervalNanoseconds : 16_666_667
    let cameraInterval = UInt64(1e9 / settings.cameraFrameRate)
    var rng = SplitMix64(seed: settings.seed)
    var sequence: UInt64 = 1
    var lags: [Double] = []
    var early = 0
    var misses = 0
    var missedTrials: [String] = []
    var presenterLateTrials: [String] = []
    var methods: [String: Int] = [:]
    var staleWithout = 0
    var trialsWithout = 0
    var staleWith = 0
    var pixels = [UInt8](repeating: 0, count: settings.width * settings.height)

    let scenarios = Scenario.allCases.count
    for trial in 0..<settings.trials {
      let scenario = Scenario(rawValue: trial % scenarios)!
      let kind = CalibrationScene.Kind.allCases[(trial / scenarios) % 3]
      var scene = CalibrationScene(
        width: settings.width, height: settings.height, kind: kind, noiseSigma: trial % 2 == 1 ? 8 : 0,
        seed: rng.next())
      var presented: [UInt64: UInt64] = [:]
      func frame() -> VideoFrame {
        let now = MonotonicClock.now()
        pixels.withUnsafeMutableBufferPointer {
          scene.render(captureTime: now, sequence: sequence, into: $0.baseAddress!)
        }
        if let scale = settings.digestScale {
          for digest in ImageDigest.subsampled(
            pixels, width: settings.width, height: settings.height, scale: scale)
          {
            presented[digest] = sequence
          }
        }
        defer { sequence += 1 }
        return VideoFrame(
          width: settings.width, height: settings.height, pixels: pixels, sequence: sequence, captureTime: now
        )
      }

      // Before: black for a launch, live frames then the lock for a relock.
      var trick: VideoFrame?
      if scenario.isLaunch {
        presenter.publishBlack()
        MonotonicClock.sleep(nanoseconds: 4 * refresh)
        if scenario == .launchWithSplash {
          trick = SplashImage.frame(width: settings.width, height: settings.height)
        }
      } else {
        var last = frame()
        for k in 0..<4 {
          if k > 0 { last = frame() }
          presenter.publish(last)
          MonotonicClock.sleep(nanoseconds: cameraInterval)
        }
        switch scenario {
        case .relockWithCover: presenter.publishBlack()
        case .relockWithFrameInFlight: trick = frame()  // captured now, shown after the unlock
        case .relockWithLiftedCover:
          presenter.publish(
            VideoFrame(
              width: last.width, height: last.height, pixels: last.pixels.map { UInt8(Int($0) * 2 / 5) },
              sequence: last.sequence, captureTime: last.captureTime))
          trick = last
        default: break
        }
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 20_000_000...60_000_000, using: &rng))
      }

      // Arm, wait (showing the trick, if any, for 150–250 ms), then present fresh frames at the
      // camera's cadence.
      let detected = PThreadMutex<FirstLiveFrame?>(nil)
      let armTime = MonotonicClock.now()
      monitor.arm(scenario.isLaunch ? .launch(since: armTime) : .unlock(since: armTime)) { first in
        detected.withLock { $0 = first }
      }
      if let trick {
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 2_000_000...20_000_000, using: &rng))
        presenter.publish(trick)
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 150_000_000...250_000_000, using: &rng))
      } else {
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 20_000_000...80_000_000, using: &rng))
      }
      let firstFreshSequence = sequence
      var firstPresent: UInt64 = 0
      var lastPresent: UInt64 = 0
      var widestGap: UInt64 = 0
      var k: UInt64 = 0
      while true {
        guard let presentTime = presenter.publish(frame()) else { break }
        if k == 0 {
          firstPresent = presentTime
        } else {
          widestGap = max(widestGap, presentTime &- lastPresent)
        }
        lastPresent = presentTime
        k += 1
        let found = detected.withLock { $0 } != nil
        if (found && k >= 3) || k * cameraInterval > 500_000_000 { break }
        MonotonicClock.sleep(until: firstPresent &+ k &* cameraInterval)
      }
      MonotonicClock.sleep(nanoseconds: 2 * refresh)

      let report = monitor.snapshot()
      if let first = detected.withLock({ $0 }) {
        let shownWasFresh = freshShown(firstFreshSequence, presented)
        if first.scanoutTime < firstPresent || !shownWasFresh {
          early += 1
        } else {
          lags.append(Double(first.scanoutTime - firstPresent) / 1e6)
        }
        methods[first.method.rawValue, default: 0] += 1
      } else if widestGap > 2 * cameraInterval + refresh {
        // The stand-in camera itself fell behind its cadence (rendering a frame took longer than
        // the detector's reach: seen at 1280×720 under ThreadSanitizer, ~250 ms a frame). Change
        // detection rightly finds no run in such frames, so the trial says nothing about the
        // probe: counted apart, not as a miss.
        presenterLateTrials.append(
          "trial \(trial + 1) (\(scenario), \(kind) scene): frames \(Int((Double(widestGap) / 1e6).rounded())) ms apart "
            + "at most, against a reach of \(Int((Double(2 * cameraInterval + refresh) / 1e6).rounded())) ms")
      } else {
        misses += 1
        let span = Double(MonotonicClock.now() &- armTime) / 1e6
        missedTrials.append(
          "trial \(trial + 1) (\(scenario), \(kind) scene, noise \(trial % 2 == 1 ? 8 : 0)): "
            + "\(report.scanoutsSinceArm) scanouts read after the arm, \(report.staleFrames) stale; "
            + "\(k) fresh frames presented, the trial ended \(Int(span.rounded())) ms after the arm")
      }
      switch scenario {
      case .relockWithCover: if report.staleFrames > 0 { staleWith += 1 }
      case .relockWithoutCover:
        trialsWithout += 1
        if report.staleFrames > 0 { staleWithout += 1 }
      default: break
      }
    }

    lags.sort()
    let final = monitor.snapshot()
    return CalibrationReport(
      load: settings.load, loadThreads: burners?.count ?? 0, refreshHz: settings.refreshHz,
      refreshIntervalMilliseconds: Double(monitor.refreshIntervalNanoseconds) / 1e6,
      realtimeGranted: monitor.realtimeGranted,
      boardDecodes: CalibrationScene.boardDecodes, trials: settings.trials, early: early, misses: misses,
      lagP50Milliseconds: lagPercentile(sorted: lags, 0.5),
      lagP99Milliseconds: lagPercentile(sorted: lags, 0.99),
      lagMaxMilliseconds: lags.last ?? .nan,
      methods: methods, staleReportedWithoutCover: staleWithout, trialsWithoutCover: trialsWithout,
      staleReportedWithCover: staleWith, analysisMicrosecondsPerScanout: final.analysisMicrosecondsPerScanout,
      display: display, presenterRealtime: presenterRealtime,
      missedTrials: missedTrials.isEmpty ? nil : missedTrials,
      presenterLateTrials: presenterLateTrials.isEmpty ? nil : presenterLateTrials)
  }

  /// The `p` (0…1) percentile of detection lags sorted ascending, ms; NaN when there are none.
  /// The tool's one definition (`Percentile.type7`), so that CI's probe bound and the results
  /// tables mean the same by p99.
  static func lagPercentile(sorted lags: [Double], _ p: Double) -> Double {
    Percentile.type7(sorted: lags, p)
  }
}
