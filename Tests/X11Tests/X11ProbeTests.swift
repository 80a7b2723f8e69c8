import CaptureKit
import LaunchContract
import PhaseTrace
import SystemCalls
import TestSupport
import Testing
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

@testable import Probe

/// The X11 probe against a real Xvfb: it finds the app's window, sees what was presented no
/// earlier than it was presented, and sees the stale frame a relock without the cover leaves.
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(.serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason), .timeLimit(.minutes(3)))
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

  @Test(
    "the probe finds the window by _NET_WM_PID, says when it was mapped, and sees the first frame no earlier than it was presented",
    arguments: [true, false])
  func monitorFindsWindow(sharedMemory: Bool) throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    let armedAt = MonotonicClock.now()
    let calls = Collector<FirstLiveFrame>()
    monitor.arm(.launch(since: armedAt)) { calls.append($0) }
    let pid: Int32 = 31337
    monitor.watch(processID: pid)
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 160, height: 120, title: "t",
      pid: pid, allowsSharedMemory: sharedMemory, onConnectionLost: { _ in })
    defer { presenter.close() }
    #expect(presenter.usesSharedMemory == sharedMemory)
    var scene = CalibrationScene(width: 160, height: 120, kind: .pattern, noiseSigma: 8, seed: 3)
    presenter.publishBlack()
    var firstPresent: UInt64?
    for k in 0..<6 {
      let (frame, _) = Self.frame(&scene, width: 160, height: 120, sequence: UInt64(k))
      let presented = presenter.publish(frame)
      if firstPresent == nil { firstPresent = presented }
      MonotonicClock.sleep(nanoseconds: 33_000_000)
    }
    #expect(calls.blockUntilCount(1, timeout: .seconds(10)))
    let report = monitor.snapshot()
    let first = try #require(report.firstLiveFrame)
    #expect(first.scanoutTime >= (firstPresent ?? .max))
    let mapped = try #require(report.events.first { $0.name == EventName.displayWindowMapped.rawValue })
    #expect(mapped.fields["method"] == .string("net_wm_pid"))
    #expect(mapped.fields["app_pid"] == .int(Int64(pid)))
    #expect(mapped.pid == getpid())
    #expect(mapped.ts >= armedAt && mapped.ts <= first.scanoutTime)
    #expect(report.staleFrames == 0)
  }

  @Test("a window without _NET_WM_PID is taken as the first window mapped after the start")
  func firstMappedWindow() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    monitor.arm(.launch(since: MonotonicClock.now()))
    monitor.watch(processID: 999_999)
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 64, height: 48, title: "t",
      pid: nil)
    defer { presenter.close() }
    #expect(
      blockUntil(timeout: .seconds(10)) {
        monitor.snapshot().events.contains { $0.name == EventName.displayWindowMapped.rawValue }
      })
    let mapped = monitor.snapshot().events.first { $0.name == EventName.displayWindowMapped.rawValue }
    #expect(mapped?.fields["method"] == .string("first_mapped"))
  }

  @Test(
    "calibration on X11: never early against ground truth, no misses, stale frames seen without the cover and never with it — a small window read pixel for pixel, 640×480 and 1280×720 read at 1/2 and 1/4 size",
    arguments: [(160, 120, 1), (640, 480, 2), (1280, 720, 4)])
  func calibration(width: Int, height: Int, readScale: Int) throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    var settings = CalibrationSettings()
    settings.width = width
    settings.height = height
    settings.trials = 9
    let report = try Calibration.runX11(
      settings, display: server.displayName, authorization: server.authorization)
    #expect(report.x11ReadScale == readScale)
    #expect(report.trials == 9)
    #expect(report.early == 0)
    #expect(report.misses == 0)
    #expect(report.trialsWithoutCover == 3)
    #expect(report.staleReportedWithoutCover == report.trialsWithoutCover)
    #expect(report.staleReportedWithCover == 0)
    #expect(report.display == "x11:" + server.displayName)
    #expect(report.lagBoundMilliseconds == Calibration.x11LagBoundMilliseconds)
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
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 96, height: 64, title: "t",
      pid: getpid())
    defer { presenter.close() }
    var scene = CalibrationScene(width: 96, height: 64, kind: .pattern, seed: 9)
    var firstPresent: UInt64?
    for k in 0..<6 {
      let presented = presenter.publish(Self.frame(&scene, width: 96, height: 64, sequence: UInt64(k)).0)
      if firstPresent == nil { firstPresent = presented }
      MonotonicClock.sleep(nanoseconds: 33_000_000)
    }
    #expect(calls.blockUntilCount(1, timeout: .seconds(10)))
    let first = try #require(monitor.snapshot().firstLiveFrame)
    #expect(first.scanoutTime >= (firstPresent ?? .max))
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
    #expect(
      access("/tmp/.X\(server.displayName.dropFirst())-lock", F_OK) != 0, "Xvfb's lock file left behind")
  }
}
