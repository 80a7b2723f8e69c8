import DisplayServers
import BenchKit
import CaptureKit
import Dispatch
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls
import TestSupport
import TestThreads
import Testing
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

@testable import Probe
@testable import ProbeCalibration

/// The X11 probe against a real Xvfb: it finds the app's window, sees what was presented no
/// earlier than it was presented, and sees the stale frame a relock without the cover leaves.
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct X11ProbeTests {
  static func frame(_ scene: inout CalibrationScene, width: Int, height: Int, sequence: UInt64) -> (
    VideoFrame, UInt64
  ) {
    var pixels = [UInt8](repeating: 0, count: width * height)
    let now = MonotonicClock.now()
    pixels.withUnsafeMutableBufferPointer {
      scene.render(captureTime: now, sequence: sequence, into: $0.baseAddress!)
    }
    return (
      VideoFrame(width: width, height: height, pixels: pixels, sequence: sequence, captureTime: now), now
    )
  }

  /// A 96×64 window of this process (`_NET_WM_PID` = its pid) on `server`, for frames to present.
  static func presenter(on server: XvfbServer) throws -> X11Presenter {
    try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 96, height: 64, title: "t",
      pid: getpid())
  }

  @Test(
    "the probe finds the window by its client's process (X-Resource), says when it was mapped, and sees the first frame no earlier than it was presented",
    arguments: [true, false])
  func monitorFindsWindow(sharedMemory: Bool) throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    let armedAt = MonotonicClock.now()
    let calls = Collector<FirstLiveFrame>()
    monitor.arm(.launch(since: armedAt)) { calls.append($0) }
    let pid = getpid()
    monitor.watch(processID: pid)
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 160, height: 120, title: "t",
      pid: pid, allowsSharedMemory: sharedMemory, onConnectionLost: { _ in })
    defer { presenter.close() }
    #expect(presenter.usesSharedMemory == sharedMemory)
    var scene = CalibrationScene(width: 160, height: 120, kind: .pattern, noiseSigma: 8, seed: 3)
    presenter.publishBlack()
    var firstPresent: UInt64?
    // Six frames at 30 fps normally; frames go on (at most 10 s × the test time scale) until the
    // probe has found the first one: under TSan a 6-frame run was not enough.
    let deadline = MonotonicClock.now() &+ UInt64(10 * TestTime.scale) * 1_000_000_000
    var k: UInt64 = 0
    while k < 6 || (calls.count == 0 && MonotonicClock.now() < deadline) {
      let (frame, _) = Self.frame(&scene, width: 160, height: 120, sequence: k)
      let presented = presenter.publish(frame)
      if firstPresent == nil { firstPresent = presented }
      MonotonicClock.sleep(nanoseconds: 33_000_000)  // not a timing assertion: frames at 30 fps
      k += 1
    }
    #expect(calls.blockUntilCount(1, timeout: .seconds(10)))
    let report = monitor.snapshot()
    let first = try #require(report.firstLiveFrame)
    #expect(first.scanoutTime >= (firstPresent ?? .max))
    let mapped = try #require(report.events.first { $0.name == EventName.displayWindowMapped.rawValue })
    #expect(mapped.fields["method"] == .string("client_pid"))
    #expect(mapped.fields["app_pid"] == .int(Int64(pid)))
    #expect(mapped.fields["owner_pid"] == .int(Int64(pid)))
    #expect(mapped.pid == getpid())
    #expect(mapped.ts >= armedAt && mapped.ts <= first.scanoutTime)
    #expect(report.staleFrames == 0)
  }

  @Test(
    "the app's own window without _NET_WM_PID is found by its client's process, not by the order it was mapped in"
  )
  func windowWithoutNetWMPid() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    monitor.arm(.launch(since: MonotonicClock.now()))
    monitor.watch(processID: getpid())
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 64, height: 48, title: "t",
      pid: nil)
    defer { presenter.close() }
    #expect(
      blockUntil(timeout: .seconds(10)) {
        monitor.snapshot().events.contains { $0.name == EventName.displayWindowMapped.rawValue }
      })
    let mapped = monitor.snapshot().events.first { $0.name == EventName.displayWindowMapped.rawValue }
    #expect(mapped?.fields["method"] == .string("client_pid"))
    #expect(mapped?.fields["window"] == .string("0x" + String(presenter.window, radix: 16)))
  }

  @Test(
    "calibration on X11: never early against ground truth, no misses, stale frames seen without the cover and never with it — a small window read pixel for pixel, 640×480 and 1280×720 read at 1/2 and 1/4 size",
    // The 1280×720 case is left out of sanitizer runs (TestTime.scale > 1): the probe's bounds
    // against ground truth need the presenter to keep a camera's cadence, and a sanitized build
    // took ~250 ms to render one such frame (no change run can form; stale frames went unseen).
    arguments: TestTime.scale > 1
      ? [(160, 120, 1), (640, 480, 2)] : [(160, 120, 1), (640, 480, 2), (1280, 720, 4)])
  func calibration(width: Int, height: Int, readScale: Int) throws {
    // The X server at real-time priority, as `bench calibrate --display x11` starts it: under two
    // CPU burners and the rest of the suite, a normal-priority Xvfb once fell so far behind at
    // 1280×720 that a trial's 500 ms of fresh frames ended before the probe saw one (a miss).
    // Without root it gets none; then, as bench calibrate does, each trial presents fresh frames
    // for 2 s (issue 41 item 6: as an unprivileged user 640×480 missed once in 500 ms), so that a
    // miss is still the probe not seeing frames that stayed on screen that long.
    let server = try XvfbFixture.start(realtime: true)
    defer { server.stop() }
    var settings = CalibrationSettings()
    settings.width = width
    settings.height = height
    settings.trials = 9
    let report = try Calibration.runX11(
      settings, display: server.displayName, authorization: server.authorization,
      serverRealtime: server.realtimeGranted)
    #expect(report.x11ReadScale == readScale)
    #expect(report.trials == 9)
    #expect(report.early == 0)
    #expect(report.misses == 0, "\(report.violations)")
    #expect(report.trialsWithoutCover == 2)  // trials 2 and 8: six scenarios take turns
    #expect(report.staleReportedWithoutCover == report.trialsWithoutCover)
    #expect(report.staleReportedWithCover == 0)
    #expect(report.display == "x11:" + server.displayName)
    #expect(report.pathLagBoundMilliseconds == Calibration.x11LagBoundMilliseconds)
    // The bound is stated against the host's wake-up latency measured in the same trials.
    let host = try #require(report.hostWakeup)
    #expect(host.samples > 0)
    #expect(report.lagBoundMilliseconds == Calibration.x11LagBoundMilliseconds + host.allowanceMilliseconds)
    if report.boardDecodes { #expect(report.methods["board", default: 0] >= 3, "\(report.methods)") }
  }

  @Test("reading the screen where the window is (what a compositor shows) finds the same first frame")
  func screenSource() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(
      x11Display: server.displayName, authorization: server.authorization, source: .screen)
    defer { monitor.stop() }
    let calls = Collector<FirstLiveFrame>()
    monitor.arm(.launch(since: MonotonicClock.now())) { calls.append($0) }
    monitor.watch(processID: getpid())
    let presenter = try Self.presenter(on: server)
    defer { presenter.close() }
    var scene = CalibrationScene(width: 96, height: 64, kind: .pattern, seed: 9)
    var firstPresent: UInt64?
    for k in 0..<6 {
      let presented = presenter.publish(Self.frame(&scene, width: 96, height: 64, sequence: UInt64(k)).0)
      if firstPresent == nil { firstPresent = presented }
      MonotonicClock.sleep(nanoseconds: 33_000_000)  // not a timing assertion: frames at 30 fps
    }
    #expect(calls.blockUntilCount(1, timeout: .seconds(10)))
    let first = try #require(monitor.snapshot().firstLiveFrame)
    #expect(first.scanoutTime >= (firstPresent ?? .max))
  }

  @Test(
    "a change that arrives while the probe is busy with the previous image is read late, and that busy time does not break the change run: the first fresh read stays the first live frame"
  )
  func busyProbeReadsLate() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    // A camera interval so long that no read made on time, however loaded the machine, falls
    // beyond the run's reach (2 × 0.5 s + 16.7 ms + 8.3 ms): only the probe's busy time does.
    var config = DetectorConfiguration(
      cameraFrameIntervalNanoseconds: 500_000_000,
      refreshIntervalNanoseconds: X11FrameSource.cadenceAllowanceNanoseconds)
    config.decodesLightBoard = false
    let detector = PThreadMutex(LiveFrameDetector(configuration: config))
    let reach = detector.withLock { $0.runReachNanoseconds }
    let reads = Collector<(time: UInt64, late: Bool, kind: ScanoutClass)>()
    let release = DispatchSemaphore(value: 0)
    let busyAt = Collector<UInt64>()
    // The probe's analysis, starved on the second fresh image (as at normal priority under load)
    // until the test lets it go on.
    let source = try X11FrameSource(
      display: server.displayName, authorization: server.authorization, source: .window, resolution: .reduced,
      realtime: false
    ) { frame in
      let kind = detector.withLock { $0.observe(frame.image, at: frame.time, seenLate: frame.seenLate) }
      reads.append((frame.time, frame.seenLate, kind))
      if kind == .waiting && reads.values.filter({ $0.kind == .waiting }).count == 2 {
        busyAt.append(frame.time)
        _ = release.wait(timeout: .now() + TestTime.seconds(30))
      }
    }
    try source.start()
    defer {
      release.signal()
      source.stop()
    }
    source.watch(processID: getpid())
    let presenter = try Self.presenter(on: server)
    defer { presenter.close() }
    presenter.publishBlack()
    #expect(blockUntil(timeout: .seconds(10)) { !source.events.isEmpty })  // the window is watched
    detector.withLock { $0.arm(.launch(since: MonotonicClock.now())) }
    source.armed()

    var scene = CalibrationScene(width: 96, height: 64, kind: .pattern, noiseSigma: 0, seed: 5)
    var sequence: UInt64 = 0
    func presentFresh() -> UInt64? {
      defer { sequence += 1 }
      return presenter.publish(Self.frame(&scene, width: 96, height: 64, sequence: sequence).0)
    }
    func freshReads() -> [(time: UInt64, late: Bool, kind: ScanoutClass)] {
      reads.values.filter { $0.kind == .waiting || $0.kind == .firstLive || $0.kind == .afterFirstLive }
    }
    let firstPresent = try #require(presentFresh())
    #expect(blockUntil(timeout: .seconds(10)) { freshReads().count >= 1 })
    _ = presentFresh()
    #expect(busyAt.blockUntilCount(1, timeout: .seconds(10)))
    _ = presentFresh()  // arrives while the probe is busy
    // The probe stays busy for longer than the run's reach (waited for on the clock it stamps
    // reads with), then reads the change it missed.
    let pastReach = busyAt.values[0] &+ reach &+ 50_000_000
    #expect(blockUntil(timeout: .seconds(10)) { MonotonicClock.now() > pastReach })
    release.signal()
    #expect(blockUntil(timeout: .seconds(10)) { freshReads().count >= 3 })
    for _ in 0..<4 where detector.withLock({ $0.firstLiveFrame }) == nil {
      let before = freshReads().count
      _ = presentFresh()
      #expect(blockUntil(timeout: .seconds(10)) { freshReads().count > before })
    }

    let fresh = freshReads()
    #expect(fresh.count >= 3)
    guard fresh.count >= 3 else { return }
    #expect(fresh[2].late, "the change that arrived while the probe was busy was read late")
    #expect(fresh[2].time &- fresh[1].time > reach)
    let first = try #require(detector.withLock { $0.firstLiveFrame })
    #expect(first.scanoutTime >= firstPresent)
    #expect(first.scanoutTime == fresh[0].time, "the first fresh read is the first live frame")
  }

  /// Whether this process may put a thread under `SCHED_FIFO` (tried on a thread of its own).
  static let realtimeAllowed: Bool = {
    let granted = PThreadMutex<Bool?>(nil)
    do {
      try SystemThread.start(name: "rt-check") {
        let ok = SystemThread.requestRealtime(priority: 1)
        granted.withLock { $0 = ok }
      }
    } catch {
      return false
    }
    _ = blockUntil(timeout: .seconds(10)) { granted.withLock { $0 } != nil }
    return granted.withLock { $0 } ?? false
  }()

  @Test(
    "while the probe looks for the first live frame it analyses at real-time priority, so a loaded machine cannot make the reads that decide it late",
    .enabled(if: realtimeAllowed, "this process may not use SCHED_FIFO: nothing to check"))
  func searchAnalysedAtRealtime() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    #expect(monitor.realtimeGranted)
    // The first live frame is announced on the probe's thread, in the middle of the analysis of
    // the image it was found on: that thread's policy then is the analysis's.
    let policies = Collector<Int32>()
    monitor.arm(.launch(since: MonotonicClock.now())) { _ in
      var policy: Int32 = 0
      var param = sched_param()
      _ = pthread_getschedparam(pthread_self(), &policy, &param)
      policies.append(policy)
    }
    monitor.watch(processID: getpid())
    let presenter = try Self.presenter(on: server)
    defer { presenter.close() }
    var scene = CalibrationScene(width: 96, height: 64, kind: .pattern, seed: 11)
    for k in 0..<12 where policies.count == 0 {
      presenter.publish(Self.frame(&scene, width: 96, height: 64, sequence: UInt64(k)).0)
      MonotonicClock.sleep(nanoseconds: 33_000_000)  // not a timing assertion: frames at 30 fps
    }
    #expect(policies.blockUntilCount(1, timeout: .seconds(10)))
    #expect(policies.values.first == SCHED_FIFO, "the probe analysed the deciding image at normal priority")
  }

  @Test("the probe reports the X server going away instead of hanging")
  func serverGone() throws {
    let server = try XvfbFixture.start()
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    kill(server.pid, SIGKILL)
    #expect(blockUntil(timeout: .seconds(10)) { server.exitReason != nil && monitor.failure != nil })
    #expect(server.exitReason?.contains("SIGKILL") == true)
    server.stop()
    // The display's lock file is gone, or is another server's: the suite runs in parallel, and
    // another test's Xvfb may take the display number the moment it is free (a rehearsal of CI
    // found the lock there, 2026-12-06), so the file is judged by the pid it names.
    let lock = "/tmp/.X\(server.displayName.dropFirst())-lock"
    let owner = FileSystem.readText(atPath: lock).flatMap {
      $0.split(whereSeparator: { $0 == " " || $0 == "\n" }).first
    }
    .flatMap { Int32($0) }
    #expect(
      owner != server.pid, "Xvfb's lock file left behind (it names the killed server, pid \(server.pid))")
  }
}
