import Dispatch
import LaunchContract
import PhaseTrace

extension CaptureSession {
  /// Starts the session and returns when it runs. Blocking: call it off the main thread. Safe to call
  /// on the session queue itself (it then runs in place).
  ///
  /// On the session queue: opens every input's device (if not open), applies its format and frame rate,
  /// initialises every output whose deferred start is disabled (each inside an `output.init`
  /// interval), and starts the primary device's stream. In an eager configuration (no output
  /// deferred) every output is initialised before this returns; deferred outputs wait for deferred start.
  ///
  /// - Throws: `noInputs`; `hardwareCostExceeded` (with the format, frame rate, binning, camera count
  ///   and budget) when `hardwareCost > 1.0`; `deviceOpenFailed`, `formatRejected`,
  ///   `outputInitializationFailed`, `streamStartFailed` with the device's error as the cause.
  public func startRunning() throws(CaptureError) {
    let result = onSessionQueue { performStart() }
    try result.get()
  }

  /// Stops the stream and waits for it. Blocking: call it off the main thread. Safe on the session queue.
  ///
  /// Finishes movie files, fails photo requests still waiting for initialisation (`sessionStopped`),
  /// and resets per-start state, so the next start emits `preview.first_present` again. Devices stay
  /// open and initialised outputs stay initialised.
  public func stopRunning() {
    onSessionQueue { performStop() }
  }

  /// `startRunning()` without blocking a thread: the work runs on the session queue.
  public func startRunning() async throws(CaptureError) {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, CaptureError>, Never>) in
      enqueue { [self] in continuation.resume(returning: performStart()) }
    }
    try result.get()
  }

  /// `stopRunning()` without blocking a thread: the work runs on the session queue.
  public func stopRunning() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      enqueue { [self] in
        performStop()
        continuation.resume()
      }
    }
  }

  // MARK: - Session queue

  private func performStart() -> Result<Void, CaptureError> {
    let (inputs, outputs, cost, alreadyRunning) = state.withLock { s in
      (s.committedInputs, s.committedOutputs, s.hardwareCost, s.isStreaming)
    }
    if alreadyRunning { return .success(()) }
    guard let primary = inputs.first else {
      return .failure(
        CaptureError(
          .noInputs, "the session has no camera input; add a CaptureDeviceInput and commit the configuration")
      )
    }
    guard cost <= 1.0 else {
      return .failure(CaptureSession.hardwareCostError(cost: cost, inputs: inputs))
    }
    do throws(CaptureError) {
      for input in inputs { try prepare(input, reportingPowerUp: true) }
      for output in outputs where !output.isDeferredStartEnabled && !output.isInitialized {
        try initialize(output, on: primary.device)
      }
    } catch {
      return .failure(error)
    }

    let hasDeferredWork = outputs.contains { $0.isDeferredStartEnabled && !$0.isInitialized }
    let undeferred = outputs.filter { !$0.isDeferredStartEnabled }
    let trigger: DeferredStartTrigger =
      if let preview = undeferred.first(where: { $0 is PreviewOutput }) {
        .output(ObjectIdentifier(preview))
      } else if let data = undeferred.first(where: { $0 is VideoDataOutput }) {
        .output(ObjectIdentifier(data))
      } else {
        .deviceFrame
      }

    for output in outputs {
      output.sessionWillStartStreaming(format: primary.format, frameRate: primary.frameRate)
    }
    routing.withLock { r in
      r.outputs = outputs
      r.ring.removeAll()
      r.deviceTriggerArmed = trigger == .deviceFrame
    }
    let scheduled = state.withLock { s -> Int? in
      s.generation += 1
      s.isStreaming = true
      s.deferredPhase = hasDeferredWork ? .idle : .complete
      s.trigger = trigger
      s.triggerFired = false
      return s.deferredStartRequested ? s.scheduleDeferredStart() : nil
    }
    do {
      try primary.device.startStream { [weak self] frame in self?.route(frame) }
    } catch {
      state.withLock { s in
        s.isStreaming = false
        s.generation += 1
        if s.deferredPhase == .scheduled { s.deferredPhase = .idle }
        if scheduled != nil { s.deferredStartRequested = true }
      }
      routing.withLock { $0 = FrameRouting() }
      return .failure(
        CaptureError(
          .streamStartFailed, "\(primary.device.localizedName) could not start streaming \(primary.format)",
          underlying: error))
    }
    state.withLock { s in
      s.isRunning = true
      s.streamingDevice = primary.device
      s.publishRunning()
    }
    if let scheduled { enqueue { [self] in runDeferredStart(generation: scheduled) } }
    return .success(())
  }

  private func performStop() {
    let stopping = state.withLock { s -> (device: (any CaptureDevice)?, outputs: [CaptureOutput])? in
      guard s.isStreaming else { return nil }
      s.isStreaming = false
      s.generation += 1
      if s.deferredPhase == .scheduled { s.deferredPhase = .idle }
      return (s.streamingDevice, s.committedOutputs)
    }
    guard let stopping else { return }
    stopping.device?.stopStream()
    routing.withLock { $0 = FrameRouting() }
    for output in stopping.outputs { output.sessionDidStopRunning() }
    state.withLock { s in
      s.isRunning = false
      s.streamingDevice = nil
      s.publishRunning()
    }
  }

  /// Opens the input's device if needed and applies its committed format. Session queue.
  /// `reportingPowerUp` (a start): `device.power_up` says how the device powered up, or `warm`
  /// (source `held_open`) for a device kept open since an earlier start.
  func prepare(_ input: CommittedInput, reportingPowerUp: Bool = false) throws(CaptureError) {
    let device = input.device
    let id = ObjectIdentifier(device)
    let (isOpen, applied) = state.withLock { ($0.openedDevices[id] != nil, $0.appliedFormats[id]) }
    if !isOpen {
      do {
        try device.open()
      } catch {
        throw CaptureError(
          .deviceOpenFailed,
          "\(device.localizedName) (\(device.uniqueID)) could not be opened; check that it exists and no other app uses it",
          underlying: error)
      }
      state.withLock { $0.openedDevices[id] = device }
      if reportingPowerUp, let powerUp = device.lastPowerUp {
        reportPowerUp(powerUp.kind, source: powerUp.source)
      }
    } else if reportingPowerUp {
      // Kept open since an earlier start (stopRunning does not release it): never powered down.
      reportPowerUp(.warm, source: "held_open")
    }
    if applied?.format != input.format || applied?.frameRate != input.frameRate {
      do {
        try device.setActiveFormat(input.format, frameRate: input.frameRate)
      } catch {
        throw CaptureError(
          .formatRejected,
          "\(device.localizedName) rejected \(input.format) at \(input.frameRate) fps; pick one of its formats",
          underlying: error)
      }
      state.withLock { $0.appliedFormats[id] = (input.format, input.frameRate) }
    }
  }

  /// `device.power_up` with its `kind` and `source` (see `DevicePowerUp`).
  func reportPowerUp(_ kind: DevicePowerUp, source: String) {
    signposter.event(
      .devicePowerUp,
      fields: [
        DevicePowerUp.fieldName: .string(kind.rawValue), DevicePowerUp.sourceFieldName: .string(source),
      ])
  }

  /// Initialises `output` on `device` inside an `output.init` interval. Session queue.
  func initialize(_ output: CaptureOutput, on device: any CaptureDevice) throws(CaptureError) {
    let fields: [String: PhaseFieldValue] = ["output": .string(output.kind.rawValue)]
    signposter.begin(.outputInit, fields: fields)
    do {
      try device.initializeOutput(output.kind)
    } catch {
      var failed = fields
      failed["error"] = .string(String(describing: error))
      signposter.end(.outputInit, fields: failed)
      let captureError = CaptureError(
        .outputInitializationFailed,
        "\(device.localizedName) could not initialise the \(output.kind.rawValue) output", underlying: error)
      output.markInitializationFailed(captureError)
      throw captureError
    }
    signposter.end(.outputInit, fields: fields)
    output.markInitialized()
  }

  /// Applies a configuration committed while running. Session queue.
  func applyConfigurationWhileRunning() {
    let snapshot = state.withLock {
      s -> ([CommittedInput], [CaptureOutput], DeferredStartPhase, (any CaptureDevice)?)? in
      guard s.isStreaming else { return nil }
      return (s.committedInputs, s.committedOutputs, s.deferredPhase, s.streamingDevice)
    }
    guard let (inputs, outputs, phase, streaming) = snapshot, let primary = inputs.first else { return }
    do throws(CaptureError) {
      for input in inputs {
        let id = ObjectIdentifier(input.device)
        let applied = state.withLock { $0.appliedFormats[id] }
        let changes = applied?.format != input.format || applied?.frameRate != input.frameRate
        if changes, let streaming, streaming === input.device {
          // A new format needs the stream off (as V4L2 does).
          streaming.stopStream()
          try prepare(input)
          do {
            try streaming.startStream { [weak self] frame in self?.route(frame) }
          } catch {
            throw CaptureError(
              .streamStartFailed, "\(streaming.localizedName) could not restart streaming \(input.format)",
              underlying: error)
          }
        } else {
          try prepare(input)
        }
      }
      for output in outputs where !output.isInitialized && output.initializationError == nil {
        if !output.isDeferredStartEnabled || phase == .complete {
          output.sessionWillStartStreaming(format: primary.format, frameRate: primary.frameRate)
          try initialize(output, on: primary.device)
        }
      }
    } catch {
      state.withLock { $0.lastRuntimeError = error }
    }
    let stillHasDeferredWork = outputs.contains { $0.isDeferredStartEnabled && !$0.isInitialized }
    state.withLock { s in
      if s.deferredPhase == .complete && stillHasDeferredWork { s.deferredPhase = .idle }
    }
    routing.withLock { $0.outputs = outputs }
  }

  // MARK: - Frame thread

  /// Hands a frame from the device to every initialised output. Runs on the device's frame thread.
  func route(_ frame: VideoFrame) {
    let (outputs, fireDeviceTrigger) = routing.withLock { r -> ([CaptureOutput], Bool) in
      r.ring.append(frame)
      if r.ring.count > FrameRouting.ringCapacity {
        r.ring.removeFirst(r.ring.count - FrameRouting.ringCapacity)
      }
      let fire = r.deviceTriggerArmed
      r.deviceTriggerArmed = false
      return (r.outputs, fire)
    }
    for output in outputs where output.isInitialized { output.receive(frame) }
    if fireDeviceTrigger { triggerFired(.deviceFrame) }
  }
}
