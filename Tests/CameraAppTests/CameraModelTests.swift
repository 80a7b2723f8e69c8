import CaptureKit
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls
import TestSupport
import Testing

@testable import CameraApp

/// The app model against a recording capture service and screen: which effects each command has,
/// in which order, and which commands change nothing. Starts and shutdowns finish only when the
/// test says so, as if the capture queue were slow; nothing here waits on a clock.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct CameraModelTests {
  /// One log that the fakes and `terminate` write to, so the order across them shows.
  final class Harness: Sendable {
    let log = Collector<String>()
    let trace = InMemoryTrace()
    let capture: RecordingCapture
    let screen: RecordingScreen
    let model: CameraModel

    init(readiness: PhotoCaptureReadiness? = .ready) {
      let log = self.log
      capture = RecordingCapture(log: log, readiness: readiness)
      screen = RecordingScreen(log: log)
      model = CameraModel(
        capture: capture, screen: screen, library: PhotoLibrary(folder: "/nonexistent/firstframe-test"),
        signposter: Signposter(sink: trace),
        terminate: { @Sendable failure in
          log.append(failure.map { "exit \($0.exitStatus): \($0.message)" } ?? "exit 0")
        })
    }

    /// A harness whose model has launched and whose session runs, with the log drained.
    static func running() -> Harness {
      let h = Harness()
      h.model.launch()
      h.capture.finishStart()
      _ = h.drain()
      return h
    }

    /// The log since the last call.
    func drain() -> [String] {
      let all = log.values
      defer { seen.withLock { $0 = all.count } }
      return Array(all.dropFirst(seen.withLock { $0 }))
    }
    private let seen = PThreadMutex(0)
  }

  final class RecordingCapture: CaptureServing {
    let log: Collector<String>
    let readiness: PhotoCaptureReadiness?
    private let pendingStarts = PThreadMutex<[@Sendable (Result<Void, AppError>) -> Void]>([])
    private let pendingShutdowns = PThreadMutex<[@Sendable () -> Void]>([])
    private let pendingPhotos = PThreadMutex<[@Sendable (Result<CapturedPhoto, CaptureError>) -> Void]>([])

    init(log: Collector<String>, readiness: PhotoCaptureReadiness?) {
      self.log = log
      self.readiness = readiness
    }

    func startRunning(then done: @escaping @Sendable (Result<Void, AppError>) -> Void) {
      log.append("capture.start")
      pendingStarts.withLock { $0.append(done) }
      // As the service: a new start drops what waited for the last run to settle.
      previewWaiters.withLock { $0 = [] }
    }

    func stopRunning() { log.append("capture.stop") }

    private let previewWaiters = PThreadMutex<[@Sendable () -> Void]>([])

    func whenLaunchSettled(_ body: @escaping @Sendable () -> Void) {
      log.append("capture.when_launch_settled")
      previewWaiters.withLock { $0.append(body) }
    }

    /// The launch has settled (first frame presented, deferred start done): runs what waited.
    func settleLaunch() {
      let waiters = previewWaiters.withLock { w in
        defer { w = [] }
        return w
      }
      log.append("capture.launch_settled")
      waiters.forEach { $0() }
    }

    func shutDown(then done: @escaping @Sendable () -> Void) {
      log.append("capture.shut_down")
      pendingShutdowns.withLock { $0.append(done) }
    }

    func capturePhoto(delivered: @escaping @Sendable (Result<CapturedPhoto, CaptureError>) -> Void)
      -> PhotoCaptureReadiness?
    {
      log.append("capture.photo")
      if readiness != nil { pendingPhotos.withLock { $0.append(delivered) } }
      return readiness
    }

    /// Finishes the oldest start still queued, with `result`.
    func finishStart(_ result: Result<Void, AppError> = .success(())) {
      pendingStarts.withLock { $0.removeFirst() }(result)
    }

    /// Finishes the oldest shutdown still queued.
    func finishShutDown() {
      pendingShutdowns.withLock { $0.removeFirst() }()
    }

    /// Answers the oldest photo request still waiting, with `result`.
    func deliver(_ result: Result<CapturedPhoto, CaptureError>) {
      pendingPhotos.withLock { $0.removeFirst() }(result)
    }
  }

  final class RecordingScreen: ScreenPresenting {
    let log: Collector<String>
    init(log: Collector<String>) { self.log = log }
    func coverPreview() { log.append("screen.cover") }
    func uncoverPreview() { log.append("screen.uncover") }
    func showSecondaryUI() { log.append("screen.secondary_ui") }
  }

  @Test(
    "launch: the status is starting until the session runs; the secondary UI shows once the first preview frame is presented"
  )
  func launch() {
    let h = Harness()
    #expect(h.model.status == .starting)
    h.model.launch()
    #expect(h.drain() == ["capture.start"])
    #expect(h.model.status == .starting)
    h.capture.finishStart()
    #expect(h.model.status == .running)
    #expect(h.drain() == ["capture.when_launch_settled"])
    h.capture.settleLaunch()
    #expect(h.drain() == ["capture.launch_settled", "screen.secondary_ui"])
  }

  @Test("lock, unlock, quit: cover before stop, uncover before restart, exit 0 once the camera is released")
  func lockUnlockQuit() {
    let h = Harness.running()

    h.model.handle(.lock)
    #expect(h.model.status == .locked)
    #expect(h.drain() == ["screen.cover", "capture.stop"])

    h.model.handle(.unlock)
    #expect(h.model.status == .starting)
    #expect(h.drain() == ["screen.uncover", "capture.start"])
    h.capture.finishStart()
    #expect(h.model.status == .running)
    #expect(h.drain() == ["capture.when_launch_settled"])
    h.capture.settleLaunch()
    #expect(h.drain() == ["capture.launch_settled", "screen.secondary_ui"])

    h.model.handle(.quit)
    #expect(h.model.status == .quitting)
    #expect(h.drain() == ["capture.shut_down"])
    h.capture.finishShutDown()
    #expect(h.drain() == ["exit 0"])
  }

  @Test("an unlock when not locked, a second lock and a second quit change nothing")
  func invalidCommandsAreNoOps() {
    let h = Harness.running()

    h.model.handle(.unlock)
    #expect(h.model.status == .running)
    h.model.handle(.lock)
    h.model.handle(.lock)
    #expect(h.drain() == ["screen.cover", "capture.stop"])
    h.model.handle(.unlock)
    h.model.handle(.unlock)
    #expect(h.drain() == ["screen.uncover", "capture.start"])
    h.model.handle(.quit)
    h.model.quit()
    #expect(h.drain() == ["capture.shut_down"])
    #expect(h.model.status == .quitting)
  }

  @Test("quit while locked shuts down from locked; lock and unlock after a quit are ignored")
  func quitWhileLocked() {
    let h = Harness.running()
    h.model.handle(.lock)
    _ = h.drain()

    h.model.handle(.quit)
    h.model.handle(.unlock)
    h.model.handle(.lock)
    #expect(h.model.status == .quitting)
    #expect(h.drain() == ["capture.shut_down"])
  }

  @Test("a lock during launch keeps the app locked when the session then starts; unlock shows the UI")
  func lockDuringLaunch() {
    let h = Harness()
    h.model.launch()
    h.model.handle(.lock)
    #expect(h.model.status == .locked)
    h.capture.finishStart()
    #expect(h.model.status == .locked)
    #expect(h.drain() == ["capture.start", "screen.cover", "capture.stop"])

    h.model.handle(.unlock)
    h.capture.finishStart()
    #expect(h.model.status == .running)
    #expect(h.drain() == ["screen.uncover", "capture.start", "capture.when_launch_settled"])
    h.capture.settleLaunch()
    #expect(h.drain() == ["capture.launch_settled", "screen.secondary_ui"])
  }

  @Test("a failed start ends the app with the failure's exit status, once; a later quit does nothing")
  func failedStart() {
    let h = Harness()
    h.model.launch()
    h.capture.finishStart(.failure(.camera("the camera could not start")))
    #expect(h.model.status == .failed(.camera("the camera could not start")))
    h.model.fail(.usage("a second failure"))
    h.model.handle(.quit)
    #expect(h.drain() == ["capture.start", "exit 1: the camera could not start"])
  }

  @Test("a failure that comes before a queued quit has run is still reported")
  func failureWhileQuitting() {
    let h = Harness()
    h.model.launch()
    h.model.quit()
    h.capture.finishStart(.failure(.usage("bad profile")))
    #expect(h.model.status == .failed(.usage("bad profile")))
    #expect(h.drain() == ["capture.start", "capture.shut_down", "exit 2: bad profile"])
  }

  @Test("a tap is traced, goes to the photo output in any status, and is accepted with its readiness")
  func tap() throws {
    let h = Harness(readiness: .ready)
    h.model.launch()
    h.model.handle(.tap)
    h.capture.finishStart()
    h.model.handle(.lock)
    h.model.handle(.tap)
    #expect(h.log.values.filter { $0 == "capture.photo" }.count == 2)
    #expect(h.trace.timeline == ["shutter.tap", "shutter.accepted", "shutter.tap", "shutter.accepted"])
    let accepted = try #require(h.trace.events.first { $0.name == EventName.shutterAccepted.rawValue })
    #expect(accepted.fields["readiness"]?.stringValue == "ready")
  }

  @Test("a photo request that fails is traced as photo.failed with the reason")
  func photoFailed() {
    let h = Harness(readiness: .ready)
    h.model.handle(.tap)
    h.capture.deliver(.failure(CaptureError(.sessionNotRunning, "the capture session is not running")))
    let failed = h.trace.events.first { $0.name == EventName.photoFailed.rawValue }
    #expect(failed?.fields["error"]?.stringValue?.contains("not running") == true)
  }
}
