import LaunchContract
/// A camera as the session sees it. Implemented by `SyntheticCamera` and `V4L2Camera`.
///
/// Every method may block (power-up, negotiation, buffer allocation); the session calls them
/// only on its own executor, never on the main thread. Implementations are thread-safe.
public protocol CaptureDevice: AnyObject, Sendable {
  /// A stable identifier, for example `synthetic:0` or `v4l2:/dev/video0`.
  var uniqueID: String { get }
  /// A name for people.
  var localizedName: String { get }
  /// The formats the device can stream, best first.
  var formats: [CaptureFormat] { get }
  /// The pixel throughput the device's hardware sustains, in pixels per second.
  /// `hardwareCost` is the active format's pixels × frame rate against this budget.
  var pixelBudget: Double { get }

  /// Powers the device up and claims it. Blocking.
  func open() throws
  /// Negotiates `format` at `frameRate` frames per second. Blocking.
  func setActiveFormat(_ format: CaptureFormat, frameRate: Double) throws
  /// Does the device-side set-up of an output of `kind`: buffer pools, encoder, still pipeline.
  /// The session calls it once per output, before `startRunning()` returns (eager) or during
  /// deferred start. Blocking.
  func initializeOutput(_ kind: CaptureOutputKind) throws
  /// Starts streaming; `deliver` is called on the device's own thread for every frame.
  func startStream(_ deliver: @escaping @Sendable (VideoFrame) -> Void) throws
  /// Stops streaming; no `deliver` call runs after it returns.
  func stopStream()
  /// A full-resolution still for the photo output. Blocking; requires `initializeOutput(.photo)`.
  func captureStill() throws -> VideoFrame
  /// Releases the device.
  func close()
  /// How the last `open()` powered the device up, and how the device knows (the
  /// `device.power_up` event's `source` field, e.g. `state_file`, `runtime_pm`); nil when the
  /// device cannot tell (the session then reports nothing).
  var lastPowerUp: (kind: DevicePowerUp, source: String)? { get }
  /// Whether the thread that takes frames from the device got real-time priority
  /// (`SCHED_FIFO`) for the current or last stream; nil when the device has no such thread or
  /// has not streamed (the app then reports nothing).
  var realtimePriorityGranted: Bool? { get }
}

extension CaptureDevice {
  /// A device that cannot tell how it powered up: nil.
  public var lastPowerUp: (kind: DevicePowerUp, source: String)? { nil }
  /// A device without a frame thread of its own: nil.
  public var realtimePriorityGranted: Bool? { nil }
}
