import CaptureKit
import Foundation
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// A camera for tests: instant unless told otherwise, records every call in order (thread-safe),
/// can hold any call at a `FakeGate`, slow it down, or make it fail, and renders frames whose every
/// pixel is `sequence % 256`.
///
/// Frames flow only when the test asks: `emitFrames(_:)` delivers synchronously on the caller's
/// thread (deterministic), `startEmittingFrames(interval:)` from a background thread.
package final class FakeCaptureDevice: CaptureDevice {
  /// A recorded call, with its arguments.
  package enum Call: Sendable, Hashable, CustomStringConvertible {
    /// `open()`.
    case open
    /// `setActiveFormat(_:frameRate:)`, with the format and the rate in frames per second.
    case setActiveFormat(CaptureFormat, frameRate: Double)
    /// `initializeOutput(_:)` for one output kind.
    case initializeOutput(CaptureOutputKind)
    /// `startStream(_:)`.
    case startStream
    /// `stopStream()`.
    case stopStream
    /// `captureStill()`.
    case captureStill
    /// `close()`.
    case close

    /// The call's step (its name without arguments).
    package var step: Step {
      switch self {
      case .open: .open
      case .setActiveFormat: .setActiveFormat
      case .initializeOutput(let kind): .initializeOutput(kind)
      case .startStream: .startStream
      case .stopStream: .stopStream
      case .captureStill: .captureStill
      case .close: .close
      }
    }

    /// `open`, `setActiveFormat(64x48@30 GREY, 30.0)`, `initializeOutput(photo)`, …
    package var description: String {
      switch self {
      case .setActiveFormat(let format, let rate): "setActiveFormat(\(format), \(rate))"
      case .initializeOutput(let kind): "initializeOutput(\(kind.rawValue))"
      default: "\(step)"
      }
    }
  }

  /// A call without arguments: what gates, delays and failures attach to.
  package enum Step: Sendable, Hashable {
    /// One per `CaptureDevice` method; `initializeOutput` per output kind, so that a test can hold
    /// or fail one output's set-up and let the others through.
    case open, setActiveFormat, initializeOutput(CaptureOutputKind), startStream, stopStream, captureStill,
      close
  }

  /// The error an injected failure throws.
  package struct InjectedFailure: Error, CustomStringConvertible {
    /// The step that failed.
    package var step: Step
    /// `injected failure in <step>`.
    package var description: String { "injected failure in \(step)" }
  }

  private struct State {
    var calls: [Call] = []
    var gates: [Step: FakeGate] = [:]
    var delays: [Step: Duration] = [:]
    var failures: Set<Step> = []
    var isOpen = false
    var activeFormat: CaptureFormat
    var initialized: Set<CaptureOutputKind> = []
    var nextSequence: UInt64 = 0
  }

  /// A stable identifier.
  package let uniqueID: String
  /// A name for people.
  package let localizedName: String
  /// The formats, best first.
  package let formats: [CaptureFormat]
  /// Sustained pixels per second.
  package let pixelBudget: Double

  private let state: PThreadMutex<State>
  // Held while a frame is delivered, so that `stopStream()` waits for the frame in flight.
  private let delivery = PThreadMutex<(@Sendable (VideoFrame) -> Void)?>(nil)
  private let emitting = Atomic<Bool>(false)
  private let signposter: Signposter?

  /// Creates a fake camera. With `trace`, every call is also written there as `fake.<call>` so tests can
  /// order device calls against session events.
  package init(
    uniqueID: String = "fake:0", localizedName: String = "Fake camera",
    formats: [CaptureFormat] = [CaptureFormat(width: 32, height: 24, maxFrameRate: 30)],
    pixelBudget: Double = 1e9, trace: InMemoryTrace? = nil
  ) {
    self.uniqueID = uniqueID
    self.localizedName = localizedName
    self.formats = formats
    self.pixelBudget = pixelBudget
    self.state = PThreadMutex(
      State(activeFormat: formats.first ?? CaptureFormat(width: 32, height: 24, maxFrameRate: 30)))
    self.signposter = trace.map { Signposter(sink: $0) }
  }

  // MARK: - Test controls

  /// Every call so far, in order.
  package var calls: [Call] { state.withLock { $0.calls } }

  /// How many calls of `step` were made.
  package func count(of step: Step) -> Int { calls.filter { $0.step == step }.count }

  /// Installs a closed gate on `step` (or returns the one installed): calls of it block until it opens.
  @discardableResult
  package func gate(_ step: Step) -> FakeGate {
    state.withLock { s in
      if let gate = s.gates[step] { return gate }
      let gate = FakeGate()
      s.gates[step] = gate
      return gate
    }
  }

  /// Makes every call of `step` take `duration` longer (a blocking sleep).
  package func setDelay(_ duration: Duration, for step: Step) {
    state.withLock { $0.delays[step] = duration }
  }

  /// Makes the next call of `step` throw `InjectedFailure`.
  package func failNext(_ step: Step) {
    _ = state.withLock { $0.failures.insert(step) }
  }

  /// Whether the stream is on.
  package var isStreaming: Bool { delivery.withLock { $0 != nil } }

  /// The output kinds initialised so far.
  package var initializedOutputs: Set<CaptureOutputKind> { state.withLock { $0.initialized } }

  /// Renders frame `sequence` of the active format: every pixel `sequence % 256`, captured now.
  package func makeFrame(sequence: UInt64) -> VideoFrame {
    let format = state.withLock { $0.activeFormat }
    return VideoFrame(
      width: format.width, height: format.height,
      pixels: [UInt8](repeating: UInt8(truncatingIfNeeded: sequence), count: format.width * format.height),
      sequence: sequence, captureTime: MonotonicClock.now())
  }

  /// Delivers `count` frames synchronously on the calling thread (while streaming). Returns the
  /// sequence numbers delivered (empty when not streaming).
  @discardableResult
  package func emitFrames(_ count: Int = 1) -> [UInt64] {
    var delivered: [UInt64] = []
    for _ in 0..<count {
      let sequence = state.withLock { s -> UInt64 in
        defer { s.nextSequence += 1 }
        return s.nextSequence
      }
      let frame = makeFrame(sequence: sequence)
      let sent = delivery.withLock { deliver -> Bool in
        guard let deliver else { return false }
        deliver(frame)
        return true
      }
      guard sent else { break }
      delivered.append(sequence)
    }
    return delivered
  }

  /// Delivers a frame every `interval` from a background thread until `stopEmittingFrames()`.
  package func startEmittingFrames(interval: Duration) {
    guard !emitting.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let thread = Thread { [self] in
      while emitting.load(ordering: .acquiring) {
        emitFrames(1)
        Thread.sleep(
          forTimeInterval: Double(interval.components.seconds) + Double(interval.components.attoseconds)
            / 1e18)
      }
    }
    thread.start()
  }

  /// Stops `startEmittingFrames(interval:)`.
  package func stopEmittingFrames() {
    emitting.store(false, ordering: .releasing)
  }

  // MARK: - CaptureDevice

  /// Records `open`.
  package func open() throws {
    try perform(.open) { $0.isOpen = true }
  }

  /// Records `setActiveFormat`.
  package func setActiveFormat(_ format: CaptureFormat, frameRate: Double) throws {
    try perform(.setActiveFormat(format, frameRate: frameRate)) { $0.activeFormat = format }
  }

  /// Records `initializeOutput`.
  package func initializeOutput(_ kind: CaptureOutputKind) throws {
    try perform(.initializeOutput(kind)) { _ = $0.initialized.insert(kind) }
  }

  /// Records `startStream` and keeps `deliver` for `emitFrames`.
  /// Installs `deliver`, then records `startStream` (and waits at its gate, if any). The handler is
  /// in place before the call returns, as with a real camera whose stream thread may deliver the
  /// first frame before `startStream` returns; it is removed again if the call fails.
  package func startStream(_ deliver: @escaping @Sendable (VideoFrame) -> Void) throws {
    delivery.withLock { $0 = deliver }
    do {
      try perform(.startStream) { _ in }
    } catch {
      delivery.withLock { $0 = nil }
      throw error
    }
  }

  /// Records `stopStream`; waits for a frame in flight.
  package func stopStream() {
    try? perform(.stopStream) { _ in }
    delivery.withLock { $0 = nil }
  }

  /// Records `captureStill` and returns the next frame (requires `initializeOutput(.photo)`).
  package func captureStill() throws -> VideoFrame {
    try perform(.captureStill) { _ in }
    let (ready, sequence) = state.withLock { s -> (Bool, UInt64) in
      defer { s.nextSequence += 1 }
      return (s.initialized.contains(.photo), s.nextSequence)
    }
    guard ready else { throw InjectedFailure(step: .captureStill) }
    return makeFrame(sequence: sequence)
  }

  /// Records `close`.
  package func close() {
    try? perform(.close) { $0.isOpen = false }
  }

  private func perform(_ call: Call, _ effect: (inout State) -> Void) throws {
    let step = call.step
    let (gate, delay) = state.withLock { ($0.gates[step], $0.delays[step]) }
    gate?.pass()
    if let delay {
      Thread.sleep(
        forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
    }
    let fails = state.withLock { s -> Bool in
      s.calls.append(call)
      if s.failures.remove(step) != nil { return true }
      effect(&s)
      return false
    }
    signposter?.event("fake.\(call)")
    if fails { throw InjectedFailure(step: step) }
  }
}
