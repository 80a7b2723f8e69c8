import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// The base class of every capture output: its kind, its deferred-start setting, and whether the
/// device side of it is initialised.
///
/// An output receives frames only once it is initialised: at `startRunning()` when deferral is
/// disabled, during deferred start when it is enabled. Once initialised it stays initialised across
/// `stopRunning()`/`startRunning()` (the device stays open), so a restart does not pay for it again.
///
/// `@unchecked Sendable`: all mutable state of this class is behind the `base` mutex; subclasses keep
/// theirs behind their own mutexes.
public class CaptureOutput: @unchecked Sendable {
  /// What this output is.
  public let kind: CaptureOutputKind
  /// Whether this output can be initialised after the first preview frame.
  public let isDeferredStartSupported: Bool

  struct BaseState {
    var isDeferredStartEnabled: Bool
    var isInitialized = false
    weak var session: CaptureSession?
    var signposter: Signposter = .disabled
    var initializationError: CaptureError?
  }

  let base: PThreadMutex<BaseState>

  init(kind: CaptureOutputKind, isDeferredStartSupported: Bool, isDeferredStartEnabledByDefault: Bool) {
    self.kind = kind
    self.isDeferredStartSupported = isDeferredStartSupported
    self.base = PThreadMutex(
      BaseState(isDeferredStartEnabled: isDeferredStartSupported && isDeferredStartEnabledByDefault))
  }

  /// Whether the session initialises this output during deferred start (after the first preview
  /// frame) instead of in `startRunning()`. The session reads it when it starts running.
  public var isDeferredStartEnabled: Bool { base.withLock { $0.isDeferredStartEnabled } }

  /// Enables or disables deferred start for this output.
  ///
  /// - Throws: `CaptureError.Code.deferredStartUnsupported` when enabling it on an output whose
  ///   `isDeferredStartSupported` is false. Disabling always succeeds.
  public func setDeferredStartEnabled(_ enabled: Bool) throws(CaptureError) {
    if enabled && !isDeferredStartSupported {
      throw CaptureError(
        .deferredStartUnsupported,
        "deferred start is not supported by the \(kind.rawValue) output; check isDeferredStartSupported "
          + "before enabling it, or leave this output undeferred")
    }
    base.withLock { $0.isDeferredStartEnabled = enabled }
  }

  /// Whether the device side of this output is initialised, so that it receives frames.
  public var isInitialized: Bool { base.withLock { $0.isInitialized } }

  /// The session this output belongs to, if any.
  var session: CaptureSession? { base.withLock { $0.session } }

  var signposter: Signposter { base.withLock { $0.signposter } }

  // MARK: - Hooks the session calls (override in subclasses; call super where noted)

  /// The session adopted this output at a commit. Subclasses call super.
  func attach(to session: CaptureSession, signposter: Signposter) {
    base.withLock {
      $0.session = session
      $0.signposter = signposter
    }
  }

  /// Marks the output initialised. Called on the session queue after the device initialised it.
  func markInitialized() {
    base.withLock {
      $0.isInitialized = true
      $0.initializationError = nil
    }
    didInitialize()
  }

  /// Records that the device failed to initialise this output. Called on the session queue.
  func markInitializationFailed(_ error: CaptureError) {
    base.withLock { $0.initializationError = error }
    initializationDidFail(error)
  }

  /// The last initialisation failure, if the output is not initialised because of one.
  var initializationError: CaptureError? { base.withLock { $0.initializationError } }

  /// Called on the session queue right after the output became initialised.
  func didInitialize() {}

  /// Called on the session queue when initialisation failed.
  func initializationDidFail(_ error: CaptureError) {}

  /// Called on the session queue just before the stream starts, with the primary input's format
  /// and frame rate (frames per second). Resets per-start state.
  func sessionWillStartStreaming(format: CaptureFormat, frameRate: Double) {}

  /// Called on the session queue after the stream stopped (no more `receive` calls).
  func sessionDidStopRunning() {}

  /// A frame for this output. Called on the device's frame thread, only while initialised.
  func receive(_ frame: VideoFrame) {}
}
