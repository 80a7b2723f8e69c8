import Dispatch
import Glibc
import LaunchContract
import LightBoard
import PhaseTrace
import SystemCalls
import TestThreads
import Testing
import TestSupport

@testable import Probe
import ProbeCalibration

/// The Wayland probe against a real headless sway (`HeadlessSway`) and a real Wayland client
/// (GStreamer's `waylandsink` showing a moving ball at 60 frames/s), one at a time (the last test
/// counts this process's probe threads).
@Suite(
  "The Wayland probe on a real headless sway", .serialized, .blocking,
  .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: HeadlessSway.available, HeadlessSway.skipReason),
  .enabled(if: WaylandBall.available, WaylandBall.skipReason))
struct WaylandFrameSourceTests {
  @Test("the source starts, reads the output's refresh, and an arm returns with a copy in hand")
  func armTimeCopy() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    let frames = Collector<UInt64>()
    let source = try WaylandFrameSource(socket: sway.socket, watcher: nil, realtime: true) { frame in
      frames.append(frame.time)
    }
    defer { source.stop() }
    try source.start()
    #expect(source.refreshIntervalNanoseconds == 16_666_666)
    // The first copy with damage is the whole output; then the output is still.
    #expect(frames.blockUntilCount(1, timeout: .seconds(20)))
    let armedAt = MonotonicClock.now()
    source.armed()
    // Nothing changes on the output: the arm-time copy is what comes, presented after the arm.
    #expect(blockUntil(timeout: .seconds(20)) { (frames.values.last ?? 0) >= armedAt })
    #expect(source.faults.refusedReads == 0)
    #expect(source.readScale == 2)
    #expect(source.failure == nil)
  }

  @Test("a real client's frames arrive in order, each presented before the probe read it")
  func framesInOrder() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    let frames = Collector<UInt64>()
    let source = try WaylandFrameSource(socket: sway.socket, watcher: nil, realtime: true) { frame in
      #expect(frame.image.width == 320 && frame.image.height == 180)
      frames.append(frame.time)
    }
    defer { source.stop() }
    try source.start()
    #expect(frames.blockUntilCount(1, timeout: .seconds(20)))
    source.armed()
    let ball = try WaylandBall(sway)
    defer { ball.stop() }
    #expect(frames.blockUntilCount(60, timeout: .seconds(60)))
    let times = frames.values
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(source.presentedAfterReceipt == 0)
    // Every frame since the arm is in the lag account: the probe thread counts a frame's lag just
    // after delivering it, so the 60th may be delivered (and this test woken) before it is counted.
    #expect(
      blockUntil(timeout: .seconds(20)) { (source.lag?.frames ?? 0) >= 59 },
      "\(String(describing: source.lag))")
    #expect(source.failure == nil)
  }

  @Test("a change made while the probe is busy is still copied, at the next commit, and marked late")
  func changeWhileBusyIsNotLost() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    // The probe under test: once held, it stays in its delivery callback until released.
    let held = PThreadMutex((holding: false, blocked: false))
    let release = DispatchSemaphore(value: 0)
    let seen = Collector<(time: UInt64, late: Bool, mean: Int)>()
    let busy = try WaylandFrameSource(socket: sway.socket, watcher: nil, realtime: true) { frame in
      seen.append((frame.time, frame.seenLate, Self.meanLuma(frame.image)))
      let hold = held.withLock { s -> Bool in
        defer { if s.holding { s.blocked = true } }
        return s.holding
      }
      if hold { release.wait() }
    }
    defer { busy.stop() }
    try busy.start()
    #expect(seen.blockUntilCount(1, timeout: .seconds(20)))
    // A second probe, never busy, to see when the client has drawn.
    let watching = Collector<Int>()
    let observer = try WaylandFrameSource(socket: sway.socket, watcher: nil, realtime: false) { frame in
      watching.append(Self.meanLuma(frame.image))
    }
    defer { observer.stop() }
    try observer.start()
    held.withLock { $0.holding = true }
    busy.armed()  // the arm-time copy (grey) is delivered, and the probe stays there
    #expect(blockUntil(timeout: .seconds(20)) { held.withLock { $0.blocked } })
    let grey = try #require(seen.values.last?.mean)
    let ball = try WaylandBall(sway)
    defer { ball.stop() }
    #expect(blockUntil(timeout: .seconds(60)) { watching.values.contains { $0 != grey } })
    ball.process.signal(SIGSTOP)  // no more changes: only what accumulated while busy is left
    defer { ball.process.signal(SIGCONT) }
    let released = MonotonicClock.now()
    held.withLock { $0.holding = false }
    release.signal()
    #expect(
      blockUntil(timeout: .seconds(20)) { seen.values.contains { $0.time >= released && $0.mean != grey } })
    let copied = try #require(seen.values.first { $0.time >= released && $0.mean != grey })
    #expect(copied.late)
  }

  static func meanLuma(_ image: LumaImage) -> Int {
    var sum = 0
    for y in 0..<image.height {
      for x in 0..<image.width { sum += Int(image[x, y]) }
    }
    return sum / max(1, image.width * image.height)
  }

  @Test("the change detector finds a client appearing on a blank output, after the arm")
  func firstLiveFrameOnBlankOutput() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    let monitor = try DisplayMonitor(waylandSocket: sway.socket)
    defer { monitor.stop() }
    #expect(blockUntil(timeout: .seconds(20)) { (monitor.waylandProbeThreadCost?.frames ?? 0) >= 1 })
    let found = Collector<FirstLiveFrame>()
    let armedAt = MonotonicClock.now()
    monitor.arm(.launch(since: armedAt)) { found.append($0) }
    let ball = try WaylandBall(sway)
    defer { ball.stop() }
    #expect(found.blockUntilCount(1, timeout: .seconds(60)))
    let report = monitor.snapshot()
    let first = try #require(report.firstLiveFrame)
    #expect(first.scanoutTime >= armedAt)
    #expect(report.refreshIntervalNanoseconds == 16_666_666)
    #expect(report.presentationLag != nil)
    #expect(!report.windowMapped)  // no watcher: no window_mapped
    #expect(monitor.failure == nil)
  }

  @Test("window_mapped names the first window a process of the app owns, never another client's")
  func windowMappedByOwner() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let watcher = FakeWindowWatcher()
    let monitor = try DisplayMonitor(waylandSocket: sway.socket, windows: watcher)
    defer { monitor.stop() }
    #expect(watcher.started)
    let ball = try WaylandBall(sway)
    defer { ball.stop() }
    // Another client's window first (init's), then the app's: only the app's counts.
    watcher.report(WaylandWindow(identifier: "4", ownerProcessID: 1, seenNanoseconds: MonotonicClock.now()))
    let seen = MonotonicClock.now()
    watcher.report(WaylandWindow(identifier: "5", ownerProcessID: ball.pid, seenNanoseconds: seen))
    monitor.watch(processID: ball.pid)
    let report = monitor.snapshot()
    let mapped = report.events.filter { $0.name == EventName.displayWindowMapped.rawValue }
    #expect(mapped.count == 1)
    #expect(mapped.first?.ts == seen)
    #expect(mapped.first?.pid == getpid())
    #expect(mapped.first?.fields["window"] == .string("5"))
    #expect(mapped.first?.fields["method"] == .string("fake"))
    #expect(mapped.first?.fields["owner_pid"] == .int(Int64(ball.pid)))
    monitor.stop()
    #expect(!watcher.started)
  }

  @Test("stop is prompt and leaves no probe thread; a compositor that goes away fails the source in one line")
  func stopAndFailure() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let monitor = try DisplayMonitor(waylandSocket: sway.socket)
    #expect(Self.probeThreads() == 1)
    monitor.stop()
    #expect(Self.probeThreads() == 0)
    monitor.stop()  // twice is fine

    let second = try DisplayMonitor(waylandSocket: sway.socket)
    defer { second.stop() }
    sway.stop()
    #expect(blockUntil(timeout: .seconds(20)) { second.failure != nil })
    let failure = try #require(second.failure)
    #expect(!failure.contains("\n") && failure.contains("Wayland compositor"))
    second.arm(.launch(since: MonotonicClock.now()))  // returns at once: the source has failed
    second.stop()
    #expect(Self.probeThreads() == 0)
  }

  @Test("the probe's CPU per frame and its lag behind the compositor, over a real client's frames")
  func costAndLag() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    let ball = try WaylandBall(sway)
    defer { ball.stop() }
    // The measurement counts the frames the client draws in its 4 s: it starts once the client
    // draws (GStreamer's start took over 4 s on a loaded machine, and 0 frames were measured).
    let watch = try DisplayMonitor(waylandSocket: sway.socket)
    #expect(blockUntil(timeout: .seconds(60)) { (watch.waylandProbeThreadCost?.frames ?? 0) >= 10 })
    watch.stop()
    let report = try WaylandProbeCost.run(socket: sway.socket, seconds: 4)
    print(
      "Wayland probe cost: \(report.framesObserved) frames (\(report.framesLate) late) in \(report.seconds) s at 1/\(report.readScale), "
        + "\(report.probeMicrosecondsPerFrame) µs a frame (detector \(report.detectorMicrosecondsPerFrame) µs), "
        + "\(report.probePercentOfCore) % of a core; lag p50 \(report.lagP50Milliseconds) ms, "
        + "p99 \(report.lagP99Milliseconds) ms, max \(report.lagMaximumMilliseconds) ms")
    #expect(report.framesObserved > 0)
    #expect(report.probeMicrosecondsPerFrame > 0)
    #expect(report.readScale == 2)
    #expect(report.lagP50Milliseconds <= report.lagP99Milliseconds)
    #expect(report.lagP99Milliseconds <= report.lagMaximumMilliseconds)
  }

  /// This process's threads named as the Wayland probe's (`firstframe.wlprobe`, 15 characters
  /// kept by the kernel).
  static func probeThreads() -> Int {
    let tasks = (try? FileSystem.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.filter { task in
      FileSystem.readText(atPath: "/proc/self/task/\(task)/comm")?.hasPrefix("firstframe.wlpr") == true
    }.count
  }
}

/// A window watcher the test drives by hand (sway's IPC watcher is DisplayServers').
final class FakeWindowWatcher: WaylandWindowWatcher {
  private let state = PThreadMutex<(@Sendable (WaylandWindow) -> Void)?>(nil)
  var method: String { "fake" }
  var started: Bool { state.withLock { $0 != nil } }
  func start(reporting report: @escaping @Sendable (WaylandWindow) -> Void) throws(ProbeSourceError) {
    state.withLock { $0 = report }
  }
  func stop() { state.withLock { $0 = nil } }
  func report(_ window: WaylandWindow) { state.withLock { $0 }?(window) }
}

/// A real Wayland client: GStreamer's `waylandsink` showing `videotestsrc pattern=ball` at 60
/// frames/s (a ball moving on black: every frame changes).
struct WaylandBall {
  static let program = "/usr/bin/gst-launch-1.0"
  static let available = access(program, X_OK) == 0
  static let skipReason: Comment =
    "Wayland client tests skipped: gst-launch-1.0 is not installed (Debian gstreamer1.0-tools, gstreamer1.0-plugins-bad for waylandsink)"

  let process: TestProcess
  var pid: Int32 { process.processIdentifier }

  init(_ sway: HeadlessSway) throws {
    var environment = sway.clientEnvironment
    environment["PATH"] = "/usr/bin:/bin"
    process = TestProcess(
      executable: Self.program,
      arguments: [
        "-q", "videotestsrc", "pattern=ball", "!", "video/x-raw,framerate=60/1", "!", "waylandsink",
      ],
      environment: environment)
    try process.run()
  }

  func stop() {
    process.signal(SIGKILL)
    _ = process.waitUntilExit(timeout: .seconds(30))
  }
}
