import CaptureKit
import Dispatch
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// The app model (AVCam's `CameraModel`): holds the one ``AppStatus`` and turns control
/// commands, the capture service's reports and failures into transitions, each with its effects
/// on the screen and on the capture service.
///
/// Any thread may call it (the control reader, a signal handler, the capture queue, the main
/// queue). The status is behind a mutex; a transition's effects run after the lock is released,
/// on the calling thread, screen first and capture second: the preview is covered before the
/// session stops, and uncovered before it restarts. Nothing here blocks: the capture service
/// queues its work.
final class CameraModel: Sendable {
  private let capture: any CaptureServing
  private let screen: any ScreenPresenting
  private let library: PhotoLibrary
  private let signposter: Signposter
  /// Ends the process: nil after a quit (exit status 0), else the failure to report.
  private let terminate: @Sendable (AppError?) -> Void
  private let current = PThreadMutex(AppStatus.starting)

  /// Creates the model in the `starting` status; nothing runs until ``launch()``.
  /// - Parameters:
  ///   - library: where delivered photos are saved.
  ///   - terminate: ends the process; called with nil after a quit (on the capture queue, once
  ///     the camera is released) or with the failure. The app's never returns.
  init(
    capture: any CaptureServing, screen: any ScreenPresenting, library: PhotoLibrary, signposter: Signposter,
    terminate: @escaping @Sendable (AppError?) -> Void
  ) {
    self.capture = capture
    self.screen = screen
    self.library = library
    self.signposter = signposter
    self.terminate = terminate
  }

  /// The app's status now.
  var status: AppStatus { current.withLock { $0 } }

  /// Starts the capture service: the launch. Call it once, after the minimum UI is up.
  func launch() {
    startCapture()
  }

  /// Handles a command from the control channel.
  func handle(_ command: ControlCommand) {
    switch command {
    case .tap: tap()
    case .lock: send(.lock)
    case .unlock: send(.unlock)
    case .quit: send(.quit)
    }
  }

  /// Quits: stops the session, releases the camera and exits 0. A second quit does nothing.
  func quit() {
    send(.quit)
  }

  /// Reports `error` on stderr and exits with its status (the first failure only).
  func fail(_ error: AppError) {
    send(.fail(error))
  }

  /// The shutter: a tap is never dropped. With responsive capture it is accepted at once; without
  /// it the request waits for the photo output (the app shows busy). As in AVCam, the shutter does
  /// not wait for the status: in any status the photo output answers the request (a photo, or an
  /// error that says why not, such as a stopped session while locked).
  func tap() {
    signposter.event(.shutterTap)
    let readiness = capture.capturePhoto { @Sendable [signposter, library] result in
      switch result {
      case .success(let photo):
        signposter.event(
          .photoDelivered,
          fields: [
            "width": .int(Int64(photo.width)), "height": .int(Int64(photo.height)),
            "capture_time_ns": .int(Int64(photo.captureTime)),
            "responsive": .bool(photo.wasResponsiveCapture),
          ])
        DispatchQueue.global(qos: .utility).async { @Sendable in try? library.save(photo) }
      case .failure(let error):
        signposter.event(.photoFailed, fields: ["error": .string("\(error)")])
      }
    }
    guard let readiness else {
      StandardError.writeLine("tap ignored: no photo output in this configuration")
      return
    }
    signposter.event(.shutterAccepted, fields: ["readiness": .string("\(readiness)")])
  }

  /// Applies `event`: the transition (``AppStatus/next(after:)``) under the lock, then its
  /// effects. Does nothing when `event` does not apply in the current status.
  func send(_ event: AppStatus.Event) {
    let applies = current.withLock { status -> Bool in
      guard let next = status.next(after: event) else { return false }
      status = next
      return true
    }
    guard applies else { return }
    switch event {
    case .sessionStarted:
      // The secondary UI's work waits until the launch has settled (first frame presented,
      // deferred outputs ready): it must not compete with them for the CPU.
      capture.whenLaunchSettled { @Sendable [screen] in screen.showSecondaryUI() }
    case .lock:
      screen.coverPreview()
      capture.stopRunning()
    case .unlock:
      screen.uncoverPreview()
      startCapture()
    case .quit:
      capture.shutDown { @Sendable [terminate] in terminate(nil) }
    case .fail(let error):
      terminate(error)
    }
  }

  private func startCapture() {
    capture.startRunning { @Sendable [self] result in
      switch result {
      case .success: send(.sessionStarted)
      case .failure(let error): send(.fail(error))
      }
    }
  }
}
