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
  /// How long a trial goes on presenting fresh frames while the probe has not found the first
  /// live frame, ns: a miss means the probe saw none of the frames presented in this window.
  /// 500 ms; ``Calibration/freshWindowWithoutRealtimeNanoseconds`` for an X server that did not
  /// get real-time priority (issue 41 item 6).
  package var freshWindowNanoseconds: UInt64 = 500_000_000
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
    var report = trials(settings, monitor: monitor, presenter: display, display: "shm", wakeupsPerLag: 2) {
      firstFresh, _ in
      monitor.firstLiveGroundTruth.map { !$0.isBlack && $0.frameSequence >= firstFresh } ?? false
    }
    report.applyLagBound(path: report.refreshIntervalMilliseconds + 2, host: report.hostWakeup)
    return report
  }

  /// The trials, on any display path: `presenter` publishes known frames into the display
  /// `monitor` watches; `freshShown(firstFreshSequence, presented)` says from ground truth
  /// whether the image the first live frame was found on was a fresh one (`presented` maps the
  /// digest of every frame presented in the trial, `ImageDigest`, to its sequence number);
  /// `wakeupsPerLag`: the threads that must wake for a presented frame to be found, whose
  /// lateness the host's wake-up allowance covers (`HostWakeupReport`).
  static func trials(
    _ settings: CalibrationSettings, monitor: DisplayMonitor, presenter: some CalibrationPresenter,
    display: String, wakeupsPerLag: Int, freshShown: (UInt64, [UInt64: UInt64]) -> Bool
  ) -> CalibrationReport {
    let burners = settings.load ? BurnerThreads(threads: ProcessInfo.processInfo.activeProcessorCount) : nil
    defer { burners?.stop() }
    // The presenter stands in for the camera's frame thread, which presents each preview frame
    // synchronously and runs under SCHED_FIFO where allowed (the synthetic camera asks for
    // priority 5): a presenter starved by the burners would not keep the camera's cadence, and
    // the calibration would measure its lateness instead of the probe's.
    let presenterRealtime = SystemThread.requestRealtime(priority: presenterPriority)
    defer { if presenterRealtime { SystemThread.dropRealtime() } }

    // The host's own wake-up latency, measured through the same trials under the same load: the
    // lag bound is stated against it (`CalibrationReport.applyLagBound`).
    let wakeups = HostWakeupSampler.start()
    var runner = TrialRunner(settings: settings, monitor: monitor, presenter: presenter)
    for trial in 0..<settings.trials {
      runner.run(trial: trial, freshShown: freshShown)
    }
    var report = runner.tally.report(
      settings, monitor: monitor, display: display, loadThreads: burners?.count ?? 0,
      presenterRealtime: presenterRealtime)
    report.hostWakeup = wakeups.stop(trials: settings.trials, wakeupsPerLag: wakeupsPerLag)
    return report
  }

  /// The `p` (0…1) percentile of detection lags sorted ascending, ms; NaN when there are none.
  /// The tool's one definition (`Percentile.type7`), so that CI's probe bound and the results
  /// tables mean the same by p99.
  static func lagPercentile(sorted lags: [Double], _ p: Double) -> Double {
    Percentile.type7(sorted: lags, p)
  }
}
