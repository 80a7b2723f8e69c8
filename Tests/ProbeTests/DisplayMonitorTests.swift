import CaptureKit
import Display
import Glibc
import LaunchContract
import PhaseTrace
import SystemCalls
import TestThreads
import Testing
import TestSupport

@testable import Probe
@testable import ProbeCalibration

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct DisplayMonitorTests {
  @Test("the monitor finds the first live frame an app presents through shared memory and calls back once")
  func monitorEndToEnd() throws {
    let monitor = try DisplayMonitor(width: 160, height: 120, refreshHz: 100)
    defer { monitor.stop() }
    let display = try SharedMemoryDisplay.open(descriptor: monitor.surfaceDescriptor)
    defer { display.close() }
    var scene = CalibrationScene(width: 160, height: 120, kind: .pattern, noiseSigma: 8, seed: 1)
    let calls = Collector<FirstLiveFrame>()
    display.presentBlack()
    usleep(40_000)  // not a timing assertion: the app shows black a while before the launch
    let armTime = MonotonicClock.now()
    monitor.arm(.launch(since: armTime)) { first in calls.append(first) }
    usleep(40_000)  // not a timing assertion: the app draws a while after the launch
    var firstPresent: UInt64 = 0
    for k in 0..<6 {
      var px = [UInt8](repeating: 0, count: 160 * 120)
      let now = MonotonicClock.now()
      px.withUnsafeMutableBufferPointer {
        scene.render(captureTime: now, sequence: UInt64(k), into: $0.baseAddress!)
      }
      let p = display.publish(
        VideoFrame(width: 160, height: 120, pixels: px, sequence: UInt64(k), captureTime: now))!
      if k == 0 { firstPresent = p }
      usleep(33_000)  // not a timing assertion: presents at about 30 Hz, as an app does
    }
    #expect(calls.blockUntilCount(1, timeout: .seconds(10)))
    let report = monitor.snapshot()
    let first = try #require(report.firstLiveFrame)
    #expect(first.scanoutTime >= firstPresent)
    #expect(calls.count == 1)
    #expect(calls.values.first == first)
    #expect(report.staleFrames == 0)
    #expect(
      report.events.contains { $0.name == EventName.displayFirstLiveFrame.rawValue && $0.pid == getpid() })
    #expect(report.refreshIntervalNanoseconds == 10_000_000)
    #expect(report.analysisMicrosecondsPerScanout > 0)
    #expect(monitor.firstLiveGroundTruth.map { !$0.isBlack } == true)
  }

  @Test(
    "calibration through the real display path, splash, frame in flight and lifted cover included, has no early detections and no misses"
  )
  func calibrationRuns() throws {
    var settings = CalibrationSettings()
    settings.width = 160
    settings.height = 120
    settings.trials = 12
    let report = try Calibration.run(settings)
    #expect(report.trials == 12)
    #expect(report.early == 0)
    #expect(report.misses == 0)
    #expect(report.lagP50Milliseconds >= 0 && report.lagMaxMilliseconds >= report.lagP50Milliseconds)
    #expect(report.trialsWithoutCover == 2)
    #expect(report.staleReportedWithCover == 0)
    #expect(report.staleReportedWithoutCover == 2)
    // The host's wake-up latency, measured through the same trials, widens the path's bound.
    let host = try #require(report.hostWakeup)
    #expect(host.samples > 0)
    #expect(report.pathLagBoundMilliseconds == report.refreshIntervalMilliseconds + 2)
    #expect(
      report.lagBoundMilliseconds == report.refreshIntervalMilliseconds + 2 + host.allowanceMilliseconds)
  }

  @Test("calibration under load stops its burners and still has no early detections")
  func calibrationUnderLoad() throws {
    var settings = CalibrationSettings()
    settings.width = 160
    settings.height = 120
    settings.trials = 3
    settings.load = true
    let report = try Calibration.run(settings)
    #expect(report.loadThreads >= 1)
    #expect(report.early == 0)
  }

  @Test("the cost benchmark reports CPU per scanout and its share of a core at 120 Hz")
  func costBenchmark() {
    let r = ProbeCostBenchmark.run(width: 160, height: 120, scanouts: 120)
    #expect(r.scanouts == 120)
    #expect(r.microsecondsPerScanout > 0)
    #expect(abs(r.percentOfCoreAt120Hz - r.microsecondsPerScanout * 120 / 1e4) < 1e-9)
  }
}
