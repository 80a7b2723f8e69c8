import CaptureKit

/// The capture side as the app model sees it: ``CaptureService`` in the app, a recorder in tests.
///
/// Every call returns at once. The session work it asks for runs later on the service's own
/// serial queue, in the order the calls were made, so a lock followed by an unlock stops and then
/// restarts the session.
protocol CaptureServing: Sendable {
  /// Configures the session (the first time only), starts it, then calls `done` with the outcome.
  func startRunning(then done: @escaping @Sendable (Result<Void, AppError>) -> Void)

  /// Runs `body` once the first preview frame since the last start has been presented: at once
  /// when it has, or when this configuration shows no preview; else right after that present,
  /// on another thread. For the work that must not compete with the first frame.
  func whenPreviewShown(_ body: @escaping @Sendable () -> Void)

  /// Stops the session. The camera stays open, so a restart is cheap.
  func stopRunning()

  /// Stops the session and releases the camera (so it stays warm for the next launch), then calls `done`.
  func shutDown(then done: @escaping @Sendable () -> Void)

  /// Asks the photo output for a photo, on the caller's thread (the request never blocks).
  /// Returns the output's readiness at the moment of the request, or nil when this configuration
  /// has no photo output (then `delivered` is never called). `delivered` runs once, later.
  func capturePhoto(delivered: @escaping @Sendable (Result<CapturedPhoto, CaptureError>) -> Void)
    -> PhotoCaptureReadiness?
}
