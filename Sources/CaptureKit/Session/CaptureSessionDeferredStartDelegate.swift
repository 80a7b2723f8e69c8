/// Told when a session initialises its deferred outputs.
///
/// Both calls arrive on the callback queue given to `CaptureSession.setDeferredStartDelegate(_:callbackQueue:)`
/// (use a serial queue: on a serial queue `sessionWillRunDeferredStart` always runs before
/// `sessionDidRunDeferredStart`). They are not the moment the camera becomes visible — that is the first
/// preview present.
public protocol CaptureSessionDeferredStartDelegate: AnyObject, Sendable {
  /// Deferred outputs are about to initialise. Avoid starting expensive work of your own now.
  func sessionWillRunDeferredStart(_ session: CaptureSession)
  /// Deferred outputs are initialised; advanced modes that need them can be enabled.
  func sessionDidRunDeferredStart(_ session: CaptureSession)
}
