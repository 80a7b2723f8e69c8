/// Where the app is in its life: the one value that control handling, the lock cover and the
/// secondary UI read (AVCam's `CameraModel.status`). It changes only through
/// ``next(after:)``, so every transition the app can make is listed in one place.
///
/// ```
/// starting ── sessionStarted ──▶ running
/// starting, running ── lock ──▶ locked ── unlock ──▶ starting
/// starting, running, locked ── quit ──▶ quitting
/// every status but failed ── fail ──▶ failed
/// ```
enum AppStatus: Sendable, Equatable {
  /// The session is being configured and started: at launch, and again after an unlock.
  case starting
  /// The session runs: the secondary UI (thumbnail well, mode picker) may show.
  case running
  /// Locked: the preview is covered (unless `--no-cover`) and the session stopped.
  case locked
  /// A quit was asked for: the session stops, the camera is released and the app exits 0.
  case quitting
  /// The camera or the app's set-up failed: the app writes the error and exits with its status.
  case failed(AppError)

  /// What can happen to the app.
  enum Event: Sendable, Equatable {
    /// The capture service's session started running (at launch or after an unlock).
    case sessionStarted
    /// The runner (or the person) locked the device.
    case lock
    /// The device was unlocked.
    case unlock
    /// `quit`, end of the control channel, a signal, or the end of `--duration`.
    case quit
    /// The camera or the app's set-up failed.
    case fail(AppError)
  }

  /// The status after `event`, or nil when `event` does not apply now and changes nothing:
  /// an unlock when not locked, a lock while locked, anything after a quit but a failure,
  /// and anything after a failure. A session that finishes starting after a lock leaves the
  /// app locked (the stop queued behind the start follows).
  func next(after event: Event) -> AppStatus? {
    switch (self, event) {
    case (.failed, _):
      return nil
    case (_, .fail(let error)):
      return .failed(error)
    case (.quitting, _):
      return nil
    case (_, .quit):
      return .quitting
    case (.starting, .sessionStarted):
      return .running
    case (.starting, .lock), (.running, .lock):
      return .locked
    case (.locked, .unlock):
      return .starting
    case (.running, .sessionStarted), (.locked, .sessionStarted), (.locked, .lock),
      (.starting, .unlock), (.running, .unlock):
      return nil
    }
  }
}
