import Dispatch
import PhaseTrace

extension CaptureSession {
  /// Whether the session runs deferred start by itself, shortly after the first preview present.
  /// Default true (automatic mode).
  ///
  /// The trigger is the first present of an undeferred `PreviewOutput`; without one, the first frame
  /// an undeferred `VideoDataOutput` hands to its handler; without either, the first frame from the
  /// device. A photo request (or a movie recording) that needs a deferred output triggers it earlier.
  public var automaticallyRunsDeferredStart: Bool { state.withLock { $0.automaticallyRunsDeferredStart } }

  /// Whether `setAutomaticallyRunsDeferredStart(false)` is allowed now: only while the session is not
  /// running, because an automatic trigger may already have been taken for the current run.
  public var isManualDeferredStartSupported: Bool { state.withLock { !$0.isStreaming } }

  /// Chooses automatic (`true`) or manual (`false`) deferred start.
  ///
  /// In manual mode nothing deferred is initialised until `runDeferredStartWhenNeeded()` (or a photo
  /// request that needs the photo output). Switching back to automatic is allowed at any time; if the
  /// trigger has already happened in this run, deferred start is queued at once.
  ///
  /// - Throws: `manualDeferredStartUnsupported` when `value` is false and
  ///   `isManualDeferredStartSupported` is false (the session is running).
  public func setAutomaticallyRunsDeferredStart(_ value: Bool) throws(CaptureError) {
    let scheduled = try state.withLock { s throws(CaptureError) -> Int? in
      if !value && s.isStreaming {
        throw CaptureError(
          .manualDeferredStartUnsupported,
          "manual deferred start cannot be chosen while the session is running; stop it (or choose it "
            + "before startRunning()) and check isManualDeferredStartSupported first")
      }
      s.automaticallyRunsDeferredStart = value
      return value && s.triggerFired ? s.scheduleDeferredStart() : nil
    }
    if let scheduled { enqueue { [self] in runDeferredStart(generation: scheduled) } }
  }

  /// Asks the session to run deferred start now: queued on the session queue at once when running,
  /// or as soon as the session next starts running. Idempotent: once deferred start has begun in a run,
  /// further calls do nothing. Meant for manual mode (call it after your own first present); in
  /// automatic mode it simply runs deferred start early.
  public func runDeferredStartWhenNeeded() {
    let scheduled = state.withLock { s -> Int? in
      guard s.isStreaming else {
        s.deferredStartRequested = true
        return nil
      }
      return s.scheduleDeferredStart()
    }
    if let scheduled { enqueue { [self] in runDeferredStart(generation: scheduled) } }
  }

  /// Sets the object told when deferred start runs, and the queue it is told on (use a serial queue;
  /// `nil` calls it on the session queue). The session holds the delegate weakly.
  public func setDeferredStartDelegate(
    _ delegate: (any CaptureSessionDeferredStartDelegate)?, callbackQueue: DispatchQueue?
  ) {
    state.withLock { s in
      s.delegate = delegate
      s.delegateQueue = callbackQueue
    }
  }

  /// Whether deferred start has finished in the current (or last) run: every deferred output was
  /// initialised. True right after `startRunning()` when no output is deferred (or all deferred outputs
  /// were initialised in an earlier run — they stay initialised); false before the first start.
  public var isDeferredStartComplete: Bool { state.withLock { $0.deferredPhase == .complete } }

  // MARK: - Triggers

  /// The trigger output presented (or delivered) its first frame of this run. Any thread.
  func outputDidPresentFirstFrame(_ output: CaptureOutput) {
    triggerFired(.output(ObjectIdentifier(output)))
  }

  /// Takes the automatic trigger of this run, if `trigger` is it. Any thread.
  func triggerFired(_ trigger: DeferredStartTrigger) {
    let scheduled = state.withLock { s -> Int? in
      guard s.isStreaming, !s.triggerFired, s.trigger == trigger else { return nil }
      s.triggerFired = true
      return s.automaticallyRunsDeferredStart ? s.scheduleDeferredStart() : nil
    }
    if let scheduled { enqueue { [self] in runDeferredStart(generation: scheduled) } }
  }

  /// A capture request waits for a deferred output: run deferred start now if it has not begun, in
  /// automatic and manual mode alike. Any thread.
  func requestDeferredStartForPendingCapture() {
    let scheduled = state.withLock { $0.scheduleDeferredStart() }
    if let scheduled { enqueue { [self] in runDeferredStart(generation: scheduled) } }
  }

  /// Initialises every deferred output of this run, between `deferred_start.will` and
  /// `deferred_start.did` and the delegate's will/did calls. Session queue. When nothing is left to
  /// initialise, it completes silently (no events, no delegate calls).
  func runDeferredStart(generation: Int) {
    let run = state.withLock {
      s -> (
        outputs: [CaptureOutput], device: (any CaptureDevice)?,
        delegate: (any CaptureSessionDeferredStartDelegate)?, queue: DispatchQueue?
      )? in
      guard s.generation == generation, s.isStreaming, s.deferredPhase == .scheduled else { return nil }
      s.deferredPhase = .running
      s.deferredStartRequested = false
      return (s.committedOutputs, s.committedInputs.first?.device, s.delegate, s.delegateQueue)
    }
    guard let run else { return }
    let work = run.outputs.filter { $0.isDeferredStartEnabled && !$0.isInitialized }
    guard let device = run.device, !work.isEmpty else {
      state.withLock { $0.deferredPhase = .complete }
      return
    }
    signposter.event(.deferredStartWill)
    notify(run.delegate, on: run.queue) { $0.sessionWillRunDeferredStart($1) }
    for output in work {
      do {
        try initialize(output, on: device)
      } catch {
        state.withLock { $0.lastRuntimeError = error }
      }
    }
    state.withLock { $0.deferredPhase = .complete }
    signposter.event(.deferredStartDid)
    notify(run.delegate, on: run.queue) { $0.sessionDidRunDeferredStart($1) }
  }

  private func notify(
    _ delegate: (any CaptureSessionDeferredStartDelegate)?, on queue: DispatchQueue?,
    _ call: @escaping @Sendable (any CaptureSessionDeferredStartDelegate, CaptureSession) -> Void
  ) {
    guard let delegate else { return }
    if let queue {
      queue.async { [self] in call(delegate, self) }
    } else {
      call(delegate, self)
    }
  }
}
