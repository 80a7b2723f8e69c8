import CaptureKit
import Display
import Probe
import Sampling
import SystemCalls

extension Calibration {
  /// Runs the trials one after another on one display path: `presenter` stands in for the
  /// camera's frame thread and publishes known frames into the display `monitor` watches; the
  /// outcome of each trial goes into `tally`.
  struct TrialRunner<Presenter: CalibrationPresenter> {
    let settings: CalibrationSettings
    let monitor: DisplayMonitor
    let presenter: Presenter
    /// The display's refresh interval, ns; no refresh grid on X11: as long as a 60 Hz screen's.
    let refresh: UInt64
    /// The camera's frame interval, ns.
    let cameraInterval: UInt64
    /// The trial schedule's random numbers (scene seeds, waits).
    var rng: SplitMix64
    /// The sequence number of the next frame, counted across the trials.
    var sequence: UInt64 = 1
    /// The frame buffer every frame is rendered into.
    var pixels: [UInt8]
    /// What the trials found so far.
    var tally = TrialTally()

    init(settings: CalibrationSettings, monitor: DisplayMonitor, presenter: Presenter) {
      self.settings = settings
      self.monitor = monitor
      self.presenter = presenter
      refresh = monitor.refreshIntervalNanoseconds > 0 ? monitor.refreshIntervalNanoseconds : 16_666_667
      cameraInterval = UInt64(1e9 / settings.cameraFrameRate)
      rng = SplitMix64(seed: settings.seed)
      pixels = [UInt8](repeating: 0, count: settings.width * settings.height)
    }

    /// Runs trial `number`; `freshShown` as for `Calibration.trials`.
    mutating func run(trial number: Int, freshShown: (UInt64, [UInt64: UInt64]) -> Bool) {
      var trial = Trial(number: number, width: settings.width, height: settings.height, seed: rng.next())
      let trick = lead(into: &trial)

      // Arm, wait (showing the trick, if any, for 150–250 ms), then present fresh frames at the
      // camera's cadence.
      let detected = PThreadMutex<FirstLiveFrame?>(nil)
      let armTime = MonotonicClock.now()
      monitor.arm(trial.scenario.isLaunch ? .launch(since: armTime) : .unlock(since: armTime)) { first in
        detected.withLock { $0 = first }
      }
      waitAfterArm(showing: trick)
      presentFreshFrames(&trial, until: detected)
      MonotonicClock.sleep(nanoseconds: 2 * refresh)

      let report = monitor.snapshot()
      if let first = detected.withLock({ $0 }) {
        let shownWasFresh = freshShown(trial.firstFreshSequence, trial.presented)
        tally.record(first, firstPresent: trial.firstPresent, shownWasFresh: shownWasFresh)
      } else if trial.widestGap > 2 * cameraInterval + refresh {
        // The stand-in camera itself fell behind its cadence (rendering a frame took longer than
        // the detector's reach: seen at 1280×720 under ThreadSanitizer, ~250 ms a frame). Change
        // detection rightly finds no run in such frames, so the trial says nothing about the
        // probe: counted apart, not as a miss.
        tally.presenterLateTrials.append(presenterLate(trial))
      } else {
        tally.misses += 1
        tally.missedTrials.append(missed(trial, report: report, armTime: armTime))
      }
      tally.recordStaleFrames(report.staleFrames, in: trial.scenario)
    }

    /// What comes before the arm: black for a launch, live frames then the lock for a relock.
    /// Returns the trick to show after the arm, if the scenario has one.
    private mutating func lead(into trial: inout Trial) -> VideoFrame? {
      var trick: VideoFrame?
      if trial.scenario.isLaunch {
        presenter.publishBlack()
        MonotonicClock.sleep(nanoseconds: 4 * refresh)
        if trial.scenario == .launchWithSplash {
          trick = SplashImage.frame(width: settings.width, height: settings.height)
        }
      } else {
        var last = frame(&trial)
        for k in 0..<4 {
          if k > 0 { last = frame(&trial) }
          presenter.publish(last)
          MonotonicClock.sleep(nanoseconds: cameraInterval)
        }
        switch trial.scenario {
        case .relockWithCover: presenter.publishBlack()
        case .relockWithFrameInFlight: trick = frame(&trial)  // captured now, shown after the unlock
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
      return trick
    }

    /// The wait between the arm and the first fresh frame: with a trick, shows it for 150–250 ms.
    private mutating func waitAfterArm(showing trick: VideoFrame?) {
      if let trick {
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 2_000_000...20_000_000, using: &rng))
        presenter.publish(trick)
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 150_000_000...250_000_000, using: &rng))
      } else {
        MonotonicClock.sleep(nanoseconds: UInt64.random(in: 20_000_000...80_000_000, using: &rng))
      }
    }

    /// Presents fresh frames at the camera's cadence until the probe has found the first live
    /// frame and at least three were presented, or for `settings.freshWindowNanoseconds`, or until
    /// the display is gone.
    private mutating func presentFreshFrames(
      _ trial: inout Trial, until detected: PThreadMutex<FirstLiveFrame?>
    ) {
      trial.firstFreshSequence = sequence
      while true {
        guard let presentTime = presenter.publish(frame(&trial)) else { break }
        trial.countFresh(presentedAt: presentTime)
        let k = trial.freshFrames
        let found = detected.withLock { $0 } != nil
        if (found && k >= 3) || k * cameraInterval > settings.freshWindowNanoseconds { break }
        MonotonicClock.sleep(until: trial.firstPresent &+ k &* cameraInterval)
      }
    }

    /// The next frame of `trial`'s scene, captured now; its digests go into `trial.presented`.
    private mutating func frame(_ trial: inout Trial) -> VideoFrame {
      let now = MonotonicClock.now()
      let sequence = sequence
      pixels.withUnsafeMutableBufferPointer {
        trial.scene.render(captureTime: now, sequence: sequence, into: $0.baseAddress!)
      }
      if let scale = settings.digestScale {
        for digest in ImageDigest.subsampled(
          pixels, width: settings.width, height: settings.height, scale: scale)
        {
          trial.presented[digest] = sequence
        }
      }
      self.sequence += 1
      return VideoFrame(
        width: settings.width, height: settings.height, pixels: pixels, sequence: sequence, captureTime: now)
    }

    /// What a trial in which the presenter fell behind says.
    private func presenterLate(_ trial: Trial) -> String {
      "trial \(trial.number + 1) (\(trial.scenario), \(trial.kind) scene): frames "
        + "\(Int((Double(trial.widestGap) / 1e6).rounded())) ms apart at most, against a reach of "
        + "\(Int((Double(2 * cameraInterval + refresh) / 1e6).rounded())) ms"
    }

    /// What a missed trial says, `report` read after it ended.
    private func missed(_ trial: Trial, report: ProbeReport, armTime: UInt64) -> String {
      let span = Double(MonotonicClock.now() &- armTime) / 1e6
      return "trial \(trial.number + 1) (\(trial.scenario), \(trial.kind) scene, noise \(trial.noise)): "
        + "\(report.scanoutsSinceArm) scanouts read after the arm, \(report.staleFrames) stale; "
        + "\(trial.freshFrames) fresh frames presented (for up to \(settings.freshWindowNanoseconds / 1_000_000) ms), "
        + "the trial ended \(Int(span.rounded())) ms after the arm"
    }
  }
}
