import Sampling
import TestSupport
import Testing

@testable import Probe
@testable import ProbeCalibration
import SystemCalls

/// `bench calibrate` exits 1 when any load level's report has a violation (CalibrateCommand.status).
@Suite struct CalibrationBoundTests {
  static func report(load: Bool, early: Int = 0, misses: Int = 0, p99: Double = 12) -> CalibrationReport {
    CalibrationReport(
      load: load, loadThreads: load ? 2 : 0, refreshHz: 60, refreshIntervalMilliseconds: 1000 / 60,
      realtimeGranted: false, boardDecodes: true, trials: 60, early: early, misses: misses,
      lagP50Milliseconds: 8, lagP99Milliseconds: p99, lagMaxMilliseconds: 20, methods: ["board": 60],
      staleReportedWithoutCover: 20, trialsWithoutCover: 20, staleReportedWithCover: 0,
      analysisMicrosecondsPerScanout: 40, display: "shm", lagBoundMilliseconds: 1000 / 60 + 2)
  }

  @Test(
    "calibration's lag p50 and p99 are the tool's type-7 percentiles, the definition of the results tables")
  func lagPercentilesAreType7() {
    // Lags of 1…10 ms: nearest rank would say p99 = 10 and p50 = 5; type 7 says 9.91 and 5.5.
    let lags = (1...10).map(Double.init)
    #expect(Calibration.lagPercentile(sorted: lags, 0.99) == Percentile.type7(sorted: lags, 0.99))
    #expect(Calibration.lagPercentile(sorted: lags, 0.5) == Percentile.type7(sorted: lags, 0.5))
    #expect(abs(Calibration.lagPercentile(sorted: lags, 0.99) - 9.91) < 1e-9)
    #expect(Calibration.lagPercentile(sorted: [], 0.99).isNaN)
  }

  @Test("the bound holds only with no early detection, no miss and a p99 lag of at most one refresh + 2 ms")
  func bound() {
    #expect(Self.report(load: false).violations.isEmpty)
    #expect(Self.report(load: true, p99: 18.6).violations.isEmpty)
    #expect(Self.report(load: true, early: 1).violations.count == 1)
    #expect(Self.report(load: false, misses: 2).violations.count == 1)
    // Under load the p99 lag is 19 ms at 60 Hz: above 16.67 + 2 ms.
    let slow = Self.report(load: true, p99: 19)
    #expect(slow.violations.count == 1)
    #expect(slow.violations.first?.contains("18.67") == true, "\(slow.violations)")
    // No lag at all (every trial early or missed) is no evidence that the bound holds.
    #expect(!Self.report(load: false, p99: .nan).violations.isEmpty)
  }

  @Test(
    "the lag bound is stated against the host's own wake-up latency measured in the same trials: a host that wakes late widens it, the probe's own lag does not"
  )
  func boundAgainstHostWakeup() {
    // CI's failure of 2026-12-03: 2 burners on a shared 2-core VM, lag p99 21.61 ms against
    // one refresh + 2 ms = 18.67 ms. A host whose wake-ups in the same trials were 4 ms late
    // 1 time in 100 gives 30 trials an allowance of 4 ms: the host, not the probe, made the lag.
    let lateHost = (0..<10_000).map { UInt64($0 % 100 == 0 ? 4_000_000 : 50_000) }
    var hostLate = Self.report(load: true, p99: 21.61)
    hostLate.applyLagBound(
      path: 1000 / 60 + 2,
      host: HostWakeupReport(overshootsNanoseconds: lateHost, cpus: 2, realtime: true, trials: 30))
    #expect(hostLate.violations.isEmpty, "\(hostLate.violations)")
    #expect(abs((hostLate.lagBoundMilliseconds ?? 0) - (1000 / 60 + 2 + 4)) < 1e-9)
    // One late wake-up in 10,000 is not an allowance for 30 trials: they meet it 0.3 % of the time.
    let oneSpike = (0..<10_000).map { UInt64($0 == 5000 ? 20_000_000 : 50_000) }
    #expect(
      HostWakeupReport(overshootsNanoseconds: oneSpike, cpus: 2, realtime: true, trials: 30)
        .allowanceMilliseconds < 0.1)
    // The same lag on a host that woke within 0.05 ms is the probe's: a violation that names
    // the host's figure, so a reader sees which it was.
    var probeLate = Self.report(load: true, p99: 21.61)
    probeLate.applyLagBound(
      path: 1000 / 60 + 2,
      host: HostWakeupReport(overshootsNanoseconds: [40_000, 50_000], cpus: 2, realtime: true, trials: 30))
    #expect(probeLate.violations.count == 1)
    #expect(
      probeLate.violations.first?.contains("host wake-up allowance 0.05 ms") == true,
      "\(probeLate.violations)")
    // No sampler (a report read from an older file): the path's bound alone.
    var noHost = Self.report(load: true, p99: 19)
    noHost.applyLagBound(path: 1000 / 60 + 2, host: nil)
    #expect(noHost.violations.count == 1)
  }

  @Test(
    "the host wake-up sampler reports what it measured: each sleep's overshoot past its deadline",
    .timeLimit(.minutes(TestTime.minutes(10))))
  func hostWakeupSampler() {
    let sampler = HostWakeupSampler.start()
    // Wait until it has slept a few times (a deadline, not a sleep-then-assert).
    let deadline = MonotonicClock.now() &+ 10_000_000_000
    while sampler.sampleCount < 5 && MonotonicClock.now() < deadline {
      MonotonicClock.sleep(nanoseconds: 1_000_000)  // not a timing assertion: a poll under a deadline
    }
    let report = sampler.stop(trials: 30)
    #expect(report.samples >= 5)
    #expect(
      report.maxMilliseconds >= report.p99Milliseconds && report.p99Milliseconds >= report.p50Milliseconds)
    #expect(report.p50Milliseconds >= 0)
    // stop() is idempotent: the thread is gone, the figures stay.
    #expect(sampler.stop(trials: 30).samples == report.samples)
    #expect(report.cpus >= 1)
  }

  @Test("a miss names its trial and what the probe saw, so a rare miss can be told from a slow machine")
  func missedTrialNamed() {
    var missed = Self.report(load: true, misses: 1)
    #expect(missed.violations == ["1 miss (must be 0)"])
    missed.missedTrials = [
      "trial 5 (relockWithFrameInFlight, board scene, noise 0): 2 scanouts read after the arm"
    ]
    #expect(
      missed.violations == [
        "1 miss (must be 0): trial 5 (relockWithFrameInFlight, board scene, noise 0): 2 scanouts read after the arm"
      ])
  }

  @Test("trials whose presenter fell behind its cadence are not misses; over a third of them is inconclusive")
  func presenterLate() {
    var report = Self.report(load: true)
    report.presenterLateTrials = Array(
      repeating: "trial 1 (launch, pattern scene): frames 250 ms apart", count: 20)
    #expect(report.violations.isEmpty)
    report.presenterLateTrials?.append("trial 2 (launch, pattern scene): frames 240 ms apart")
    #expect(report.violations.count == 1)
    #expect(report.violations.first?.hasPrefix("inconclusive: in 21 of 60 trials the presenter") == true)
  }

  @Test("bench calibrate's verdict needs the bound under each load level: one bad level fails it")
  func eachLoadLevel() {
    #expect(CalibrationReport.boundHolds(under: [Self.report(load: false), Self.report(load: true)]))
    #expect(
      !CalibrationReport.boundHolds(under: [Self.report(load: false), Self.report(load: true, p99: 19)]))
    #expect(
      !CalibrationReport.boundHolds(under: [Self.report(load: false, early: 1), Self.report(load: true)]))
    #expect(!CalibrationReport.boundHolds(under: []))
  }
}
