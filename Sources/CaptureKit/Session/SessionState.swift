import Dispatch

/// An input as committed: the format and frame rate the session applies to the device.
struct CommittedInput {
  var input: CaptureDeviceInput
  var format: CaptureFormat
  /// Frames per second.
  var frameRate: Double
  var device: any CaptureDevice { input.device }
}

/// Where deferred start is in the current run.
enum DeferredStartPhase: Equatable {
  /// Waiting for its trigger (first present, a photo request, or the app in manual mode).
  case idle
  /// Queued on the session queue.
  case scheduled
  /// Initialising deferred outputs.
  case running
  /// Every deferred output has been initialised (or there were none).
  case complete
}

/// What starts deferred start in automatic mode.
enum DeferredStartTrigger: Equatable {
  /// The first present (or first delivered frame) of this output.
  case output(ObjectIdentifier)
  /// The first frame from the device (no undeferred preview or data output).
  case deviceFrame
}

/// Everything a session knows, guarded by `CaptureSession.state`.
struct SessionState {
  var configurationDepth = 0
  var stagedInputs: [CaptureDeviceInput] = []
  var stagedOutputs: [CaptureOutput] = []
  var committedInputs: [CommittedInput] = []
  var committedOutputs: [CaptureOutput] = []
  var hardwareCost = 0.0
  var commitCount = 0

  var automaticallyRunsDeferredStart = true
  weak var delegate: (any CaptureSessionDeferredStartDelegate)?
  var delegateQueue: DispatchQueue?

  /// True from just before the stream starts until `stopRunning()`; frames may arrive.
  var isStreaming = false
  /// True once `startRunning()` has finished successfully, until `stopRunning()`.
  var isRunning = false
  /// Bumped at every start and stop so that stale queued work can tell it is stale.
  var generation = 0
  var deferredPhase = DeferredStartPhase.idle
  /// `runDeferredStartWhenNeeded()` was called while the session was not streaming.
  var deferredStartRequested = false
  var trigger = DeferredStartTrigger.deviceFrame
  var triggerFired = false

  var openedDevices: [ObjectIdentifier: any CaptureDevice] = [:]
  var appliedFormats: [ObjectIdentifier: (format: CaptureFormat, frameRate: Double)] = [:]
  var streamingDevice: (any CaptureDevice)?
  var lastRuntimeError: CaptureError?

  var observers: [Int: AsyncStream<Bool>.Continuation] = [:]
  var nextObserverID = 0

  /// Moves deferred start to `.scheduled` if it can run now; returns the generation to run it for.
  mutating func scheduleDeferredStart() -> Int? {
    guard isStreaming, deferredPhase == .idle else { return nil }
    deferredPhase = .scheduled
    return generation
  }

  /// Tells every running-state observer.
  func publishRunning() {
    for continuation in observers.values { continuation.yield(isRunning) }
  }
}

/// The frame path's state, guarded by `CaptureSession.routing` (kept apart from `state` so the
/// frame thread rarely contends with configuration).
struct FrameRouting {
  static let ringCapacity = 4
  var outputs: [CaptureOutput] = []
  /// The most recent frames, oldest first: the moments responsive capture takes photos from.
  var ring: [VideoFrame] = []
  var deviceTriggerArmed = false
}
