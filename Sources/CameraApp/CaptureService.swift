import CaptureKit
import Dispatch
import PhaseTrace
import Synchronization
import SyntheticCamera
import SystemCalls

/// Owns the capture session, its camera and its outputs (AVCam's `CaptureService`).
///
/// All session work runs on one serial queue, `camera-app.capture`, never on the main thread:
/// configuring, the blocking `startRunning()` and `stopRunning()`, releasing the camera, and
/// starting a movie once deferred start is done (the session's deferred-start callbacks arrive on
/// this queue too). Callers get their work queued in call order and return at once.
///
/// A dispatch queue rather than an actor with a custom executor (AVCam's choice): the callers are
/// plain threads (the control reader, signal handlers, the render thread, CaptureKit's callbacks),
/// which could reach an actor only through unstructured tasks, and those do not keep the order
/// they were created in (a lock then an unlock could restart before they stop), whereas
/// `queue.async` is FIFO. CaptureKit's API is synchronous and blocking by design, which is what a
/// serial queue is for; and Linux's Dispatch has no `DispatchSerialQueue` to back an actor.
///
/// The references the service hands out between threads (the photo output for a tap, manual
/// mode's first-present flag) are behind a mutex, so the type is Sendable without `@unchecked`.
final class CaptureService: CaptureServing, CaptureSessionDeferredStartDelegate {
  /// The serial queue all capture work runs on.
  let queue = DispatchQueue(label: "camera-app.capture", qos: .userInitiated)
  let options: AppOptions
  /// `FIRSTFRAME_INJECT_DELAY_MS`: a documented regression hook for checking CI gates.
  let injectedDelayMilliseconds: Int?
  let signposter: Signposter
  /// Where preview frames go (through the lock cover).
  let preview: CoverableDisplay
  let state = PThreadMutex(State())

  /// What the service holds once the session is configured.
  struct State {
    var session: CaptureSession?
    var device: (any CaptureDevice)?
    var photoOutput: PhotoOutput?
    var movieOutput: MovieFileOutput?
    /// Manual mode: whether this run's first frame has been presented (reset at each start).
    var manualFirstPresentDone = false
    /// Whether this run's first preview frame has been presented (reset at each start); true
    /// without a preview output, where nothing is waited for.
    var previewShown = false
    /// Whether this run's deferred start has finished (`sessionDidRunDeferredStart`); the
    /// session's `isDeferredStartComplete` says so too when nothing was left to defer.
    var deferredStartDone = false
    /// Whether both happened: the launch's own work is done (reset at each start).
    var launchSettled = false
    /// What waits for that (``whenLaunchSettled(_:)``).
    var settledWaiters: [@Sendable () -> Void] = []
    /// The exposure meter's newest mean luma (analysis output), 0–255.
    var meteredLuma: Double?
    /// The system-pressure poll, from the launch's settling on.
    var pressurePoll: SystemPressurePoll?
    /// Whether the launch asked for the pressure poll (it starts once the launch has settled).
    var pressurePollWanted = false
    /// Whether the poll was started (it starts once).
    var pressurePollStarted = false
  }

  /// Creates the service; nothing is configured until the first ``startRunning(then:)``.
  init(
    options: AppOptions, injectedDelayMilliseconds: Int?, signposter: Signposter, preview: CoverableDisplay
  ) {
    self.options = options
    self.injectedDelayMilliseconds = injectedDelayMilliseconds
    self.signposter = signposter
    self.preview = preview
  }

  // MARK: - CaptureServing

  func startRunning(then done: @escaping @Sendable (Result<Void, AppError>) -> Void) {
    queue.async { @Sendable [self] in
      let isLaunch = state.withLock { $0.session == nil }
      do {
        if isLaunch {
          try configureSession()
          if let delay = injectedDelayMilliseconds {
            MonotonicClock.sleep(nanoseconds: UInt64(min(delay, 60_000)) * 1_000_000)
          }
        }
        try startSession()
      } catch {
        done(.failure((error as? AppError) ?? .camera("\(error)")))
        return
      }
      done(.success(()))
      if isLaunch { requestPressureMonitor() }
    }
  }

  func stopRunning() {
    queue.async { @Sendable [self] in stopSession() }
  }

  func whenLaunchSettled(_ body: @escaping @Sendable () -> Void) {
    let now = state.withLock { s -> Bool in
      if s.launchSettled { return true }
      s.settledWaiters.append(body)
      return false
    }
    if now { body() }
  }

  /// The first preview frame of this run is on the display (called on the frame thread).
  func previewPresented() {
    settle { $0.previewShown = true }
  }

  /// Marks what happened (`change`, under the lock) and, once the first frame is up and deferred
  /// start has finished, runs what waited for that, once per run, on a utility queue: never on
  /// the frame thread, and not on the capture queue, which may be busy.
  func settle(_ change: (inout State) -> Void = { _ in }) {
    let (waiters, startPoll) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
      change(&s)
      // Nothing left to defer (eager, or outputs a relock's earlier run initialised): done.
      if !s.deferredStartDone, s.session?.isDeferredStartComplete == true { s.deferredStartDone = true }
      guard s.previewShown, s.deferredStartDone, !s.launchSettled else { return ([], false) }
      s.launchSettled = true
      defer { s.settledWaiters = [] }
      return (s.settledWaiters, s.pressurePollWanted && !s.pressurePollStarted)
    }
    guard !waiters.isEmpty || startPoll else { return }
    DispatchQueue.global(qos: .utility).async { @Sendable [self] in
      if startPoll { startPressureMonitor() }
      waiters.forEach { $0() }
    }
  }

  func shutDown(then done: @escaping @Sendable () -> Void) {
    queue.async { @Sendable [self] in
      stopSession()
      state.withLock { $0.device }?.close()
      done()
    }
  }

  func capturePhoto(delivered: @escaping @Sendable (Result<CapturedPhoto, CaptureError>) -> Void)
    -> PhotoCaptureReadiness?
  {
    guard let photo = state.withLock({ $0.photoOutput }) else { return nil }
    let readiness = photo.captureReadiness
    photo.capturePhoto(with: PhotoSettings(), completion: delivered)
    return readiness
  }

  // MARK: - Deferred start (callbacks on `queue`)

  func sessionWillRunDeferredStart(_ session: CaptureSession) {}

  /// Starts the movie asked for with `--record`, now that the movie output is ready; and the
  /// launch may have settled.
  func sessionDidRunDeferredStart(_ session: CaptureSession) {
    defer { settle { $0.deferredStartDone = true } }
    guard let path = options.recordPath, let movie = state.withLock({ $0.movieOutput }) else { return }
    do {
      try movie.startRecording(toPath: path)
    } catch {
      signposter.event(.movieFailed, fields: ["error": .string("\(error)")])
    }
  }

  // MARK: - On the queue

  /// Starts the configured session (blocking, on `queue`).
  func startSession() throws(AppError) {
    guard let session = state.withLock({ $0.session }) else { return }
    state.withLock {
      $0.manualFirstPresentDone = false
      $0.previewShown = !session.outputs.contains { $0.kind == .preview || $0.kind == .videoData }
      $0.deferredStartDone = false
      $0.launchSettled = false
      // A run stopped before it settled (locked during launch) asked for nothing this run still
      // needs: the model asks again when this start is done.
      $0.settledWaiters = []
    }
    do {
      try signposter.interval(.sessionStartRunning) { try session.startRunning() }
    } catch {
      throw .camera("\(error)")
    }
    settle()  // without a preview output and with nothing deferred, the launch has settled
    if let granted = state.withLock({ $0.device })?.realtimePriorityGranted {
      signposter.event(.deviceRealtimePriority, fields: ["granted": .bool(granted)])
    }
  }

  /// Stops the session (blocking, on `queue`); the interval is written even when it was stopped.
  func stopSession() {
    guard let session = state.withLock({ $0.session }) else { return }
    signposter.interval(.sessionStopRunning) { session.stopRunning() }
  }

  /// Asks for the system-pressure poll: it starts once the launch has settled (its first reading
  /// must not compete with the first frame or the deferred outputs for the CPU), at once if it has.
  private func requestPressureMonitor() {
    let now = state.withLock { s -> Bool in
      s.pressurePollWanted = true
      return s.launchSettled
    }
    if now { startPressureMonitor() }
  }

  /// Starts the system-pressure poll, once.
  private func startPressureMonitor() {
    let first = state.withLock { s -> Bool in
      guard !s.pressurePollStarted else { return false }
      s.pressurePollStarted = true
      return true
    }
    guard first else { return }
    let monitor = SystemPressureMonitor()
    let poll = monitor.poll(interval: .milliseconds(500), queue: DispatchQueue.global(qos: .utility)) {
      @Sendable [signposter] reading in
      signposter.event(.pressureLevel, fields: ["level": .string(reading.level.rawValue)])
    }
    state.withLock { $0.pressurePoll = poll }
  }
}
