import Dispatch
import PhaseTrace
import Synchronization
import SystemCalls

/// The Linux counterpart of `AVCaptureSession`: device inputs, outputs, and the start sequence
/// that gets the first preview frame on screen before anything else (deferred start).
///
/// All state is behind mutexes; all device work runs on the session's own serial queue. The only
/// calls that block their caller on that queue are the documented blocking ones: `startRunning()` and
/// `stopRunning()` (never call them on the main thread, nor from a frame callback of the device).
///
/// The session emits `output.init` (begin/end, field `output`), `deferred_start.will` and
/// `deferred_start.did`; `PreviewOutput` emits `preview.first_present`. The app emits the rest.
///
/// Devices are opened by `startRunning()` and stay open across `stopRunning()` (so outputs stay
/// initialised and a restart is cheap); the app closes them (`device.close()`) when it is done.
public final class CaptureSession: Sendable {
  private static let queueKey = DispatchSpecificKey<Int>()
  private static let nextQueueID = Atomic<Int>(1)

  /// The serial queue all session work runs on.
  let queue: DispatchQueue
  private let queueID: Int
  /// Where the session's phase events go.
  let signposter: Signposter
  let state = PThreadMutex(SessionState())
  let routing = PThreadMutex(FrameRouting())

  /// Creates an empty session whose events go to `signposter`.
  public init(signposter: Signposter = .disabled) {
    self.signposter = signposter
    self.queue = DispatchQueue(label: "firstframe.capture.session", qos: .userInitiated)
    self.queueID = CaptureSession.nextQueueID.wrappingAdd(1, ordering: .relaxed).oldValue
    queue.setSpecific(key: CaptureSession.queueKey, value: queueID)
  }

  // MARK: - Configuration

  /// Opens a configuration block: inputs, outputs, formats and frame-rate overrides staged until the
  /// matching `commitConfiguration()` apply together, once. Blocks nest; the outermost commit applies.
  public func beginConfiguration() {
    state.withLock { $0.configurationDepth += 1 }
  }

  /// Closes a configuration block. At the outermost commit the staged inputs and outputs, each input's
  /// `activeFormat` and `frameRateOverride`, and `hardwareCost` are taken over. While running, device
  /// work for the change (a new format, new outputs) is queued on the session queue, not done here.
  public func commitConfiguration() {
    let apply = state.withLock { s -> Bool in
      s.configurationDepth = max(0, s.configurationDepth - 1)
      return s.configurationDepth == 0
    }
    if apply { applyStagedConfiguration() }
  }

  /// Whether `input` can be added: it is not in the session yet, and neither is its device.
  public func canAddInput(_ input: CaptureDeviceInput) -> Bool {
    state.withLock { s in
      !s.stagedInputs.contains { $0 === input || $0.device === input.device }
    }
  }

  /// Adds `input` (staged until the commit when inside a configuration block). Several inputs make
  /// a multi-camera session: the first is the primary one that outputs receive frames from; every
  /// input is opened, configured and counted in `hardwareCost`.
  ///
  /// - Precondition: `canAddInput(input)`.
  public func addInput(_ input: CaptureDeviceInput) {
    precondition(
      canAddInput(input), "CaptureSession.addInput: the input or its device is already in the session")
    let apply = state.withLock { s -> Bool in
      s.stagedInputs.append(input)
      return s.configurationDepth == 0
    }
    if apply { applyStagedConfiguration() }
  }

  /// Whether `output` can be added: it is in no session yet, and this session has no output of its kind.
  public func canAddOutput(_ output: CaptureOutput) -> Bool {
    guard output.session == nil else { return false }
    return state.withLock { s in
      !s.stagedOutputs.contains { $0 === output || $0.kind == output.kind }
    }
  }

  /// Adds `output` (staged until the commit when inside a configuration block).
  ///
  /// - Precondition: `canAddOutput(output)`.
  public func addOutput(_ output: CaptureOutput) {
    precondition(
      canAddOutput(output),
      "CaptureSession.addOutput: the output is in a session already, or this session has a \(output.kind.rawValue) output"
    )
    let apply = state.withLock { s -> Bool in
      s.stagedOutputs.append(output)
      return s.configurationDepth == 0
    }
    if apply { applyStagedConfiguration() }
  }

  /// The committed inputs, primary first.
  public var inputs: [CaptureDeviceInput] { state.withLock { $0.committedInputs.map(\.input) } }

  /// The committed outputs, in the order they were added.
  public var outputs: [CaptureOutput] { state.withLock { $0.committedOutputs } }

  /// How much of the devices' sustainable pixel throughput the committed configuration needs:
  /// Σ over inputs of `width × height × fps × binFactor / device.pixelBudget`, where fps is
  /// `frameRateOverride ?? format.maxFrameRate` and binFactor is 0.25 for binned formats (2×2 binning
  /// reads a quarter of the sensor data), 1 otherwise. At most 1.0 is sustainable;
  /// `startRunning()` refuses more. Valid after a commit (0 before).
  public var hardwareCost: Double { state.withLock { $0.hardwareCost } }

  /// How many configurations have been committed.
  var commitCount: Int { state.withLock { $0.commitCount } }

  private func applyStagedConfiguration() {
    let (added, running) = state.withLock { s -> ([CaptureOutput], Bool) in
      s.committedInputs = s.stagedInputs.map { input in
        let (format, rate) = input.snapshot()
        return CommittedInput(input: input, format: format, frameRate: rate)
      }
      let added = s.stagedOutputs.filter { staged in !s.committedOutputs.contains { $0 === staged } }
      s.committedOutputs = s.stagedOutputs
      s.hardwareCost = CaptureSession.hardwareCost(of: s.committedInputs)
      s.commitCount += 1
      return (added, s.isStreaming)
    }
    for output in added { output.attach(to: self, signposter: signposter) }
    if running { enqueue { [self] in applyConfigurationWhileRunning() } }
  }

  // MARK: - State

  /// Whether the session is running: `startRunning()` finished and `stopRunning()` has not been called.
  public var isRunning: Bool { state.withLock { $0.isRunning } }

  /// Whether frames may flow: the stream is starting or running. True from the moment
  /// `startRunning()` asks the camera to stream — a camera may deliver its first frame, and preview
  /// show it, before that call returns — until the stream stops or fails to start.
  var isStreamingOrStarting: Bool { state.withLock { $0.isStreaming || $0.isRunning } }

  /// The last error from work the session did on its own (deferred start, a reconfiguration while
  /// running), or `nil`.
  public var lastRuntimeError: CaptureError? { state.withLock { $0.lastRuntimeError } }

  /// The running state as it changes: the current value first, then every change.
  /// The stream ends when the consumer stops iterating (or its task is cancelled).
  public func runningStates() -> AsyncStream<Bool> {
    let (stream, continuation) = AsyncStream<Bool>.makeStream(bufferingPolicy: .unbounded)
    let id = state.withLock { s -> Int in
      let id = s.nextObserverID
      s.nextObserverID += 1
      s.observers[id] = continuation
      continuation.yield(s.isRunning)
      return id
    }
    continuation.onTermination = { [weak self] _ in
      _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
    }
    return stream
  }

  // MARK: - Session queue helpers

  /// Whether the caller is running on the session queue.
  var isOnSessionQueue: Bool { DispatchQueue.getSpecific(key: CaptureSession.queueKey) == queueID }

  /// Runs `body` on the session queue, later.
  func enqueue(_ body: @escaping @Sendable () -> Void) {
    queue.async(execute: body)
  }

  /// Runs `body` on the session queue and waits for it; runs it in place when already there.
  func onSessionQueue<T>(_ body: () -> T) -> T {
    isOnSessionQueue ? body() : queue.sync(execute: body)
  }

  /// Waits until every piece of work queued on the session queue so far has run (for tests).
  func drainSessionQueue() {
    onSessionQueue {}
  }

  /// The primary input's device.
  var primaryDevice: (any CaptureDevice)? { state.withLock { $0.committedInputs.first?.device } }

  /// The primary input's committed format.
  var primaryFormat: CaptureFormat? { state.withLock { $0.committedInputs.first?.format } }

  /// The newest streamed frame, if any (responsive capture's moment).
  func newestFrame() -> VideoFrame? { routing.withLock { $0.ring.last } }
}
