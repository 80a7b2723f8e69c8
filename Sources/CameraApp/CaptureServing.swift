import CaptureKit

/// The capture side as the app model sees it: ``CaptureService`` in the app, a recorder in tests.
///
/// Every call returns at once. The session work it asks for runs later on the service's own
/// serial queue, in the order the calls were made, so a lock followed by an unlock stops and then
/// restarts the session.
protocol CaptureServing: Sendable {
  /// Configures the session (the first time only), starts it, then calls `done` with the outcome.
  func startRunning(then done: @escaping @Sendable (Result<Void, AppError>) -> Void)

  /// Runs `body` once the launch since the last start has settled: its first preview frame
  /// presented (none is waited for without a preview output) and deferred start finished
  /// (nothing is waited for when nothing was deferred). At once when it has; else later, on
  /// another thread. For the work that must not compete with the first frame or the deferred
  /// outputs — the seeds' order: preview, the shutter, deferred outputs, then secondary UI.
  func whenLaunchSettled(_ body: @escaping @Sendable () -> Void)

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
