#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import Dispatch
import Display
import CommandLineKit
import Foundation
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls
import SyntheticCamera
import V4L2Camera

/// The reference camera app (issue 2): the program `bench` launches again and again.
///
/// Launch order, as the seeds teach it:
/// 1. `app.main`, then the preview surface is created (the minimum UI) → `ui.ready`.
/// 2. On the capture queue, never the main thread: `session.configure` (one commit) and
///    `session.start_running`. The preview output presents the first frame (`preview.first_present`).
/// 3. Deferred outputs initialise after the first present (`deferred_start.will`/`.did`).
/// 4. Secondary UI (thumbnail well, mode picker) starts only once the session runs →
///    `ui.secondary_visible`.
/// The main thread only runs the main queue; it never waits on the camera.
public final class CameraApp: Sendable {
  let options: AppOptions
  /// The launch contract's variables this process was started with.
  let environment: LaunchEnvironment
  let signposter: Signposter
  let display: CoverableDisplay
  /// Owns the private surface when the app runs without `FIRSTFRAME_DISPLAY`.
  let privateSurface: (any Sendable)?
  /// All capture work runs here (STYLE.md: capture isolated on its own executor).
  let captureQueue = DispatchQueue(label: "camera-app.capture", qos: .userInitiated)
  let uiQueue = DispatchQueue.main
  let library: PhotoLibrary
  let state = Mutex(State())
  let deferredStartObserver: DeferredStartObserver

  struct State: Sendable {
    var session: CaptureSession?
    var device: (any CaptureDevice)?
    var photoOutput: PhotoOutput?
    var movieOutput: MovieFileOutput?
    var locked = false
    var quitting = false
    var manualFirstPresentDone = false
    /// The exposure meter's newest mean luma (analysis output), 0–255.
    var meteredLuma: Double?
  }

  init(
    options: AppOptions, environment: LaunchEnvironment, signposter: Signposter, display: any DisplaySink,
    privateSurface: (any Sendable)?
  ) {
    self.options = options
    self.environment = environment
    self.library = PhotoLibrary.standard(environment: environment)
    self.signposter = signposter
    self.display = CoverableDisplay(display)
    self.privateSurface = privateSurface
    self.deferredStartObserver = DeferredStartObserver()
  }

  // MARK: - Entry point

  /// Runs the app with `arguments` (without the program name): `CameraAppCommand` answers
  /// `--help` and turns a bad command line into one line and exit status 2, then launches. Never
  /// returns.
  public static func main(arguments: [String]) -> Never {
    exit(CameraAppCommand.main(arguments))
  }

  /// Launches the app with its parsed command line. Never returns.
  static func launch(_ options: AppOptions) -> Never {
    let launchedAt = MonotonicClock.now()
    let environment: LaunchEnvironment
    let writer: TraceWriter?
    do {
      environment = try LaunchEnvironment.current()
    } catch {
      fail(.usage(error.message))
    }
    do {
      writer = try TraceWriter.from(environment)
    } catch {
      fail(.usage(error.description))
    }
    let signposter = writer.map { Signposter(sink: $0) } ?? .disabled
    signposter.event(.appMain, fields: ["run": .string(environment.runID ?? "")], at: launchedAt)

    // The minimum UI: the surface preview presents into. Nothing else happens before the
    // capture queue is started.
    let display: any DisplaySink
    var privateSurface: (any Sendable)?
    do {
      if let name = environment.display {
        display = try SharedMemoryDisplay.open(name: name)
      } else {
        let own = try SharedMemoryDisplay.createPrivate(width: 640, height: 360)
        display = own
        privateSurface = own
      }
    } catch {
      fail(.usage("cannot open the display surface: \(error)"))
    }
    let app = CameraApp(
      options: options, environment: environment, signposter: signposter, display: display,
      privateSurface: privateSurface)
    signposter.event(.uiReady)

    app.startCapture()
    app.listenForControl()
    app.handleSignals()
    if let seconds = options.durationSeconds {
      app.uiQueue.asyncAfter(deadline: .now() + seconds) { @Sendable in app.quit(status: 0) }
    }
    dispatchMain()
  }

  static func fail(_ error: AppError) -> Never {
    FileHandle.standardError.write(Data("camera-app: \(error.message)\n".utf8))
    exit(error.exitStatus)
  }

  // MARK: - Capture

  /// Configures and starts the session on the capture queue.
  func startCapture() {
    captureQueue.async { @Sendable [self] in
      do {
        try configureSession()
        if let delay = environment.injectDelayMilliseconds {
          // FIRSTFRAME_INJECT_DELAY_MS: a documented regression hook for checking CI gates.
          usleep(UInt32(min(delay, 60_000)) * 1000)
        }
        try startSession()
        uiQueue.async { @Sendable [self] in startSecondaryUI() }
        startPressureMonitor()
      } catch let error as AppError {
        Self.fail(error)
      } catch {
        Self.fail(.camera("\(error)"))
      }
    }
  }

  func makeDevice() throws -> any CaptureDevice {
    switch options.camera {
    case .synthetic:
      let profile: CostProfile
      if let path = options.profilePath {
        do {
          profile = try CostProfile.load(path: path)
        } catch {
          throw AppError.usage("\(error)")
        }
      } else {
        profile = CostProfile.default
      }
      return SyntheticCamera(profile: profile)
    case .v4l2(let path):
      do {
        return try V4L2Camera(path: path, signposter: signposter)
      } catch {
        throw AppError.camera("\(error)")
      }
    }
  }

  func configureSession() throws {
    try signposter.interval(
      .sessionConfigure, fields: ["config": .string(options.configuration.rawValue)]
    ) {
      let device = try makeDevice()
      let session = CaptureSession(signposter: signposter)
      session.beginConfiguration()
      defer { session.commitConfiguration() }
      let input = CaptureDeviceInput(device: device)
      guard session.canAddInput(input) else {
        throw AppError.camera("cannot add the camera \(device.uniqueID)")
      }
      session.addInput(input)

      let config = options.configuration
      let wanted = config == .previewOnly ? [CaptureOutputKind.preview] : options.outputs
      var photo: PhotoOutput?
      var movie: MovieFileOutput?
      for kind in wanted {
        let output: CaptureOutput
        switch kind {
        case .preview, .videoData:
          if config == .manual {
            output = makeManualPreviewOutput(session: session)
          } else {
            output = PreviewOutput(display: display)
          }
        case .photo:
          let p = PhotoOutput()
          if p.isResponsiveCaptureSupported {
            try p.setResponsiveCaptureEnabled(options.responsiveCapture)
          }
          photo = p
          output = p
        case .movie:
          let m = MovieFileOutput()
          movie = m
          output = m
        case .analysis:
          // The app's exposure meter: keeps the newest mean luma from the histogram.
          let analysis = AnalysisOutput()
          analysis.setHistogramHandler(queue: DispatchQueue(label: "camera-app.meter", qos: .utility)) {
            @Sendable [self] histogram in
            state.withLock { $0.meteredLuma = histogram.mean }
          }
          output = analysis
        }
        // Defer everything preview does not need; never the preview path itself.
        let isPreviewPath = kind == .preview || kind == .videoData
        if output.isDeferredStartSupported {
          try output.setDeferredStartEnabled(config != .eager && !isPreviewPath)
        }
        guard session.canAddOutput(output) else {
          throw AppError.camera("cannot add the \(kind.rawValue) output")
        }
        session.addOutput(output)
      }
      if config == .manual {
        guard session.isManualDeferredStartSupported else {
          throw AppError.camera("this session does not support manual deferred start")
        }
        try session.setAutomaticallyRunsDeferredStart(false)
      }
      deferredStartObserver.app = self
      session.setDeferredStartDelegate(deferredStartObserver, callbackQueue: uiQueue)
      state.withLock {
        $0.session = session
        $0.device = device
        $0.photoOutput = photo
        $0.movieOutput = movie
      }
    }
  }

  /// Manual mode: the app renders preview itself from a data output, reports its own first
  /// present and then lets deferred start run.
  private func makeManualPreviewOutput(session: CaptureSession) -> CaptureOutput {
    let output = VideoDataOutput()
    let renderQueue = DispatchQueue(label: "camera-app.render", qos: .userInteractive)
    output.setFrameHandler(queue: renderQueue) { @Sendable [self] frame in
      display.present(frame)
      let first = state.withLock { s -> Bool in
        if s.manualFirstPresentDone { return false }
        s.manualFirstPresentDone = true
        return true
      }
      if first {
        signposter.event(
          .previewFirstPresent, fields: ["capture_time_ns": .int(Int64(frame.captureTime))])
        captureQueue.async { @Sendable in session.runDeferredStartWhenNeeded() }
      }
    }
    return output
  }

  func startSession() throws {
    guard let session = state.withLock({ $0.session }) else { return }
    state.withLock { $0.manualFirstPresentDone = false }
    try signposter.interval(.sessionStartRunning) {
      do {
        try session.startRunning()
      } catch {
        throw AppError.camera("\(error)")
      }
    }
    if let synthetic = state.withLock({ $0.device }) as? SyntheticCamera,
      let granted = synthetic.realtimePriorityGranted
    {
      signposter.event("device.realtime_priority", fields: ["granted": .bool(granted)])
    }
  }

  func stopSession() {
    guard let session = state.withLock({ $0.session }) else { return }
    signposter.interval(.sessionStopRunning) { session.stopRunning() }
  }

  // MARK: - Secondary UI

  func startSecondaryUI() {
    // Decoding the thumbnail and laying out the picker happen off the main thread; showing
    // them is a main-queue hop.
    DispatchQueue.global(qos: .utility).async { @Sendable [self] in
      let built = SecondaryUI(library: library).build()
      uiQueue.async { @Sendable [self] in
        signposter.event(
          .uiSecondaryVisible,
          fields: ["thumbnail": .bool(built.thumbnail), "picker_pixels": .int(Int64(built.pickerPixels))])
      }
    }
  }

  // MARK: - Deferred start

  func didRunDeferredStart() {
    guard let path = options.recordPath, let movie = state.withLock({ $0.movieOutput }) else { return }
    captureQueue.async { @Sendable [signposter] in
      do {
        try movie.startRecording(toPath: path)
      } catch {
        signposter.event("movie.failed", fields: ["error": .string("\(error)")])
      }
    }
  }

  // MARK: - Control

  func listenForControl() {
    guard let endpoint = environment.control else { return }
    do {
      let channel = try ControlChannel(endpoint: endpoint)
      try channel.start(
        handle: { @Sendable [self] command in handle(command) },
        unknown: { @Sendable line in
          FileHandle.standardError.write(
            Data("camera-app: ignoring unknown command '\(line.prefix(80))'\n".utf8))
        },
        ended: { @Sendable [self] in quit(status: 0) })
    } catch let error as LaunchContractError {
      Self.fail(.usage(error.message))
    } catch {
      Self.fail(.camera("cannot start the control reader: \(error)"))
    }
  }

  func handle(_ command: ControlCommand) {
    switch command {
    case .tap: tap()
    case .lock: lock()
    case .unlock: unlock()
    case .quit: quit(status: 0)
    }
  }

  /// The shutter: a tap is never dropped. With responsive capture it is accepted at once;
  /// without it the request waits for the photo output and the app shows busy.
  func tap() {
    signposter.event(.shutterTap)
    guard let photo = state.withLock({ $0.photoOutput }) else {
      FileHandle.standardError.write(
        Data("camera-app: tap ignored: no photo output in this configuration\n".utf8))
      return
    }
    let readiness = photo.captureReadiness
    let settings = PhotoSettings()
    photo.capturePhoto(with: settings) { @Sendable [self] result in
      switch result {
      case .success(let captured):
        signposter.event(
          .photoDelivered,
          fields: [
            "width": .int(Int64(captured.width)), "height": .int(Int64(captured.height)),
            "capture_time_ns": .int(Int64(captured.captureTime)),
            "responsive": .bool(captured.wasResponsiveCapture),
          ])
        DispatchQueue.global(qos: .utility).async { @Sendable [library] in try? library.save(captured) }
      case .failure(let error):
        signposter.event("photo.failed", fields: ["error": .string("\(error)")])
      }
    }
    signposter.event(.shutterAccepted, fields: ["readiness": .string("\(readiness)")])
  }

  func lock() {
    let already = state.withLock { s -> Bool in
      defer { s.locked = true }
      return s.locked
    }
    guard !already else { return }
    if !options.noCover { display.cover() }
    captureQueue.async { @Sendable [self] in stopSession() }
  }

  func unlock() {
    let wasLocked = state.withLock { s -> Bool in
      defer { s.locked = false }
      return s.locked
    }
    guard wasLocked else { return }
    display.uncover()
    signposter.event(.uiReady, fields: ["after": "unlock"])
    captureQueue.async { @Sendable [self] in
      do {
        try startSession()
        // The secondary UI fades in again once the camera runs (the thumbnail may have changed).
        uiQueue.async { @Sendable [self] in startSecondaryUI() }
      } catch {
        Self.fail((error as? AppError) ?? .camera("\(error)"))
      }
    }
  }

  /// Stops the session, releases the camera (so it stays warm for the next launch) and exits.
  func quit(status: Int32) {
    let first = state.withLock { s -> Bool in
      defer { s.quitting = true }
      return !s.quitting
    }
    guard first else { return }
    captureQueue.async { @Sendable [self] in
      stopSession()
      state.withLock { $0.device }?.close()
      exit(status)
    }
  }

  func handleSignals() {
    let handlers = SignalHandlers(signals: [SIGTERM, SIGINT, SIGHUP]) { @Sendable [self] _ in quit(status: 0)
    }
    signalHandlers.withLock { $0 = handlers }
  }

  private let signalHandlers = Mutex<SignalHandlers?>(nil)

  // MARK: - Pressure

  func startPressureMonitor() {
    let monitor = SystemPressureMonitor()
    let poll = monitor.poll(interval: .milliseconds(500), queue: DispatchQueue.global(qos: .utility)) {
      @Sendable [signposter] reading in
      signposter.event(.pressureLevel, fields: ["level": .string(reading.level.rawValue)])
    }
    pressurePoll.withLock { $0 = poll }
  }

  private let pressurePoll = Mutex<SystemPressurePoll?>(nil)
}

/// Receives deferred-start callbacks on the app's chosen queue (the main queue).
final class DeferredStartObserver: CaptureSessionDeferredStartDelegate {
  private let appRef = Mutex<CameraApp?>(nil)
  var app: CameraApp? {
    get { appRef.withLock { $0 } }
    set { appRef.withLock { $0 = newValue } }
  }

  func sessionWillRunDeferredStart(_ session: CaptureSession) {}

  func sessionDidRunDeferredStart(_ session: CaptureSession) {
    app?.didRunDeferredStart()
  }
}
