import CaptureKit
import Glibc
import LaunchContract
import LightBoard
import Synchronization
import SystemCalls

/// The embedded default camera: a simulated sensor with a ``CostProfile``, usable anywhere.
///
/// Each step costs what the profile says, as a wait (`hardware`) or as real CPU and memory
/// work on the calling thread (`software`, see ``CostProfile``):
/// - `open()`: power-up, cold or warm (see ``lastPowerUp`` and ``markCold(stateDirectory:)``);
/// - `setActiveFormat(_:frameRate:)`: format negotiation;
/// - `initializeOutput(_:)`: that output's initialisation (once per output per open; again is free);
/// - `startStream(_:)`: returns at once; the first frame comes after the first-frame latency,
///   then one every frame interval on a dedicated real-time (when permitted) thread.
///
/// Every frame shows the light board (``LightBoard``) rendered at the active format's size with
/// the frame's capture time (`CLOCK_MONOTONIC` at render) plus the profile's sensor noise.
///
/// Warm or cold power-up is decided from a state file in the state directory, written at
/// `open()` (held) and `close()` (released), so it holds across processes: see
/// ``defaultStateDirectory`` and ``recordRelease(stateDirectory:atNs:)``.
public final class SyntheticCamera: CaptureDevice {
  /// The profile the camera follows.
  public let profile: CostProfile
  /// Where the power state file lives.
  public let stateDirectory: String
  /// `synthetic:0`.
  public let uniqueID = "synthetic:0"
  /// `Synthetic Camera (<profile name>)`.
  public let localizedName: String
  /// The sensor's full-resolution format, then its binned formats (8-bit luma, `GREY`).
  public let formats: [CaptureFormat]

  private let stateFile: PowerStateFile
  private let noise: SensorNoise?
  private let state = PThreadMutex(State())
  private let deliveries = DeliveryAfterStopCounter()

  /// The frames delivered after a `stopStream()` had returned, over every stream of this camera:
  /// 0 unless the stop failed to wait for the frame thread.
  package var framesDeliveredAfterStop: Int { deliveries.framesDeliveredAfterStop }

  private struct State {
    var isOpen = false
    var activeFormat: CaptureFormat?
    var frameRate: Double?
    var outputs: [CaptureOutputKind: WorkProduct?] = [:]
    var stream: (stream: FrameStream, thread: pthread_t)?
    var realtimePriorityGranted: Bool?
    var lastPowerUp: PowerUp?
    var lastStateFileError: SyntheticCameraError?
    var stillSequence: UInt64 = 0
  }

  /// Creates a camera following `profile`, keeping its power state in `stateDirectory`
  /// (default: ``defaultStateDirectory``). Nothing is powered up until `open()`.
  public init(profile: CostProfile, stateDirectory: String? = nil) {
    self.profile = profile
    self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory
    stateFile = PowerStateFile(directory: self.stateDirectory)
    localizedName = "Synthetic Camera (\(profile.name))"
    formats = profile.sensor.formats
    noise = SensorNoise(
      sigma: profile.noiseSigma, maxWidth: formats.map(\.width).max() ?? profile.sensor.width)
  }

  /// `$FIRSTFRAME_SYNTHETIC_STATE` when set and not empty, else `$XDG_RUNTIME_DIR/firstframe`,
  /// else `/tmp/firstframe-<uid>`. A folder that another user owns, that others can write into,
  /// or that is a symbolic link is not used: the camera powers up cold and records no close.
  public static var defaultStateDirectory: String { PowerStateFile.defaultDirectory() }

  /// Forgets the last close recorded in `stateDirectory` (default: ``defaultStateDirectory``),
  /// so the next `open()` in any process powers up cold. The benchmark runner calls it before a
  /// `cold` run. A directory without a state file is already cold.
  public static func markCold(stateDirectory: String? = nil) throws(SyntheticCameraError) {
    try PowerStateFile(directory: stateDirectory ?? defaultStateDirectory).remove()
  }

  /// Records the release of a device whose holder never closed it — a process that was killed,
  /// crashed or timed out while it held the camera open — at `atNs` (CLOCK_MONOTONIC, ns: when
  /// that process ended), as the kernel releases a real device's file when its holder exits; the
  /// next `open()` within the warm window of it is then warm. The benchmark runner calls it after
  /// it reaps an app. Returns whether a release was recorded: false when the device was not held
  /// (its holder closed it, or it was never opened).
  public static func recordRelease(stateDirectory: String? = nil, atNs: UInt64) throws(SyntheticCameraError)
    -> Bool
  {
    try PowerStateFile(directory: stateDirectory ?? defaultStateDirectory).recordRelease(atNs: atNs)
  }

  /// The sensor's pixel budget from the profile, pixels per second.
  public var pixelBudget: Double { profile.sensor.pixelBudget }

  /// Whether the frame thread got `SCHED_FIFO`; nil until a stream has started.
  public var realtimePriorityGranted: Bool? { state.withLock { $0.realtimePriorityGranted } }

  /// How the last `open()` powered up, decided from the state file (source `state_file`): cold
  /// unless the camera was closed (by any process, this boot) within the profile's
  /// `warm_window_ms`. Nil before the first open.
  public var lastPowerUp: (kind: DevicePowerUp, source: String)? {
    state.withLock { $0.lastPowerUp }.map { ($0, "state_file") }
  }

  /// Why the last `open()` or `close()` could not record the device's state (then the next open
  /// is cold), if it could not.
  public var lastStateFileError: SyntheticCameraError? { state.withLock { $0.lastStateFileError } }

  /// Powers up (the profile's cold or warm cost) and claims the device. Blocking.
  public func open() throws {
    try state.withLock { s throws(SyntheticCameraError) in
      guard !s.isOpen else { throw SyntheticCameraError(.alreadyOpen, "\(uniqueID) is already open") }
      s.isOpen = true
    }
    let openedAt = MonotonicClock.now()
    let powerUp = stateFile.powerUp(now: openedAt, warmWindowMs: profile.warmWindowMs)
    // Held from now until close(); a holder that never closes is released by whoever reaps it
    // (``recordRelease(stateDirectory:atNs:)``).
    var failure: SyntheticCameraError?
    do { try stateFile.markHeld(openNs: openedAt) } catch { failure = error }
    let cost = powerUp == .warm ? profile.costs.powerUpWarm : profile.costs.powerUpCold
    let product = CostSpender.spend(
      cost, plan: .device(width: profile.sensor.width, height: profile.sensor.height))
    product?.digestSink()
    state.withLock {
      $0.lastPowerUp = powerUp
      $0.lastStateFileError = failure
    }
  }

  /// Negotiates `format` (one of ``formats``) at `frameRate` frames per second (> 0, at most the
  /// format's maximum); costs the profile's format negotiation. Not while streaming. Blocking.
  public func setActiveFormat(_ format: CaptureFormat, frameRate: Double) throws {
    try state.withLock { s throws(SyntheticCameraError) in
      try requireOpen(s)
      guard s.stream == nil else {
        throw SyntheticCameraError(.streaming, "stop the stream of \(uniqueID) before changing its format")
      }
    }
    guard
      let match = formats.first(where: {
        $0.width == format.width && $0.height == format.height && $0.isBinned == format.isBinned
      })
    else {
      throw SyntheticCameraError(
        .unsupportedFormat,
        "\(uniqueID) has no format \(format); it streams \(formats.map(\.description).joined(separator: ", "))"
      )
    }
    guard frameRate > 0, frameRate <= match.maxFrameRate * 1.0001 else {
      throw SyntheticCameraError(
        .unsupportedFrameRate,
        "\(uniqueID) cannot stream \(match) at \(frameRate) fps (0 < rate ≤ \(match.maxFrameRate))")
    }
    CostSpender.spend(
      profile.costs.formatNegotiation, plan: .device(width: match.width, height: match.height))?
      .digestSink()
    state.withLock {
      $0.activeFormat = match
      $0.frameRate = frameRate
    }
  }

  /// Initialises an output of `kind`: the profile's cost for it, with real buffer pools for
  /// software costs (kept until `close()`). A second call for the same kind does nothing. Blocking.
  public func initializeOutput(_ kind: CaptureOutputKind) throws {
    let (already, format) = try state.withLock { s throws(SyntheticCameraError) in
      try requireOpen(s)
      return (s.outputs[kind] != nil, s.activeFormat ?? formats[0])
    }
    guard !already else { return }
    let size = kind == .photo ? (profile.sensor.width, profile.sensor.height) : (format.width, format.height)
    let product = CostSpender.spend(
      profile.costs.initialization(of: kind), plan: .forOutput(kind, width: size.0, height: size.1))
    state.withLock { s in
      if s.isOpen { s.outputs[kind] = .some(product) }
    }
  }

  /// Starts the frame thread; returns once it has tried for real-time priority. The first frame
  /// comes after the profile's first-frame latency, then one every `1000 / frameRate` ms (or the
  /// profile's `frame_interval_ms` when no format was set), at the active format's size.
  public func startStream(_ deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
    let (format, rate) = try state.withLock { s throws(SyntheticCameraError) in
      try requireOpen(s)
      guard s.stream == nil else {
        throw SyntheticCameraError(.streaming, "\(uniqueID) is already streaming")
      }
      return (s.activeFormat ?? formats[0], s.frameRate)
    }
    let interval = rate.map { 1e9 / $0 } ?? profile.frameIntervalMs * 1e6
    let stream = FrameStream(
      width: format.width, height: format.height, intervalNs: UInt64(interval),
      firstFrameLatency: profile.costs.firstFrameLatency, noise: noise, afterStop: deliveries.gate(),
      deliver: deliver)
    let thread = try stream.start()
    let stray: (FrameStream, pthread_t)? = state.withLock { s in
      s.realtimePriorityGranted = stream.realtimePriorityGranted
      guard s.isOpen, s.stream == nil else { return (stream, thread) }
      s.stream = (stream, thread)
      return nil
    }
    if let (stray, thread) = stray {  // closed or started concurrently: undo
      stray.requestStop()
      pthread_join(thread, nil)
      throw SyntheticCameraError(.streaming, "\(uniqueID) was closed or started elsewhere while starting")
    }
  }

  /// Stops the frame thread and waits for it (`pthread_join`), so no `deliver` call runs after
  /// it returns. Called from inside `deliver`, it stops the stream without waiting (that call
  /// is the last). Does nothing when not streaming.
  public func stopStream() {
    guard
      let (stream, thread) = state.withLock({ s in
        defer { s.stream = nil }; return s.stream
      })
    else { return }
    stream.requestStop()
    let fromDelivery = pthread_equal(pthread_self(), thread) != 0
    if fromDelivery {
      pthread_detach(thread)
    } else {
      pthread_join(thread, nil)
    }
    stream.afterStop.stopReturned(fromDelivery: fromDelivery)
  }

  /// A full-resolution still, rendered now (light board with the current `CLOCK_MONOTONIC` time
  /// plus noise). Requires `initializeOutput(.photo)` since the last `open()`. Blocking.
  public func captureStill() throws -> VideoFrame {
    let sequence = try state.withLock { s throws(SyntheticCameraError) in
      try requireOpen(s)
      guard s.outputs[.photo] != nil else {
        throw SyntheticCameraError(
          .photoOutputNotInitialized, "\(uniqueID) cannot capture a still before initializeOutput(.photo)")
      }
      defer { s.stillSequence += 1 }
      return s.stillSequence
    }
    return FrameRenderer.frame(
      width: profile.sensor.width, height: profile.sensor.height, captureTime: MonotonicClock.now(),
      sequence: sequence, noise: noise)
  }

  /// Stops the stream, releases every output's buffers and records the close time in the state
  /// file (temporary file + rename) so that an `open()` within the warm window powers up warm.
  /// A failure to write it is kept in ``lastStateFileError``.
  public func close() {
    stopStream()
    let wasOpen = state.withLock { s in
      defer {
        s.isOpen = false
        s.outputs = [:]
        s.activeFormat = nil
        s.frameRate = nil
      }
      return s.isOpen
    }
    guard wasOpen else { return }
    var failure: SyntheticCameraError?
    do { try stateFile.write(closeNs: MonotonicClock.now()) } catch { failure = error }
    state.withLock { $0.lastStateFileError = failure }
  }

  deinit {
    if let (stream, thread) = state.withLock({ $0.stream }) {
      stream.requestStop()
      pthread_join(thread, nil)
    }
  }

  private func requireOpen(_ s: State) throws(SyntheticCameraError) {
    guard s.isOpen else { throw SyntheticCameraError(.notOpen, "\(uniqueID) is not open; call open() first") }
  }
}
