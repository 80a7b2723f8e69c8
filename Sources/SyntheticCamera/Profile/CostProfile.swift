import CaptureKit

/// What the synthetic camera costs: its sensor, noise, frame timing and the latency of every
/// step a capture session takes, read from a JSON file (see `Benchmarks/profiles/README.md`).
///
/// Every cost has a ``CostKind``: a `hardware` cost is a wait (`clock_nanosleep`), which a
/// loaded CPU does not stretch; a `software` cost is real CPU and memory work that runs until
/// the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`) reaches the cost, so on an idle
/// core it takes its nominal time and on a loaded CPU it takes longer in wall time, as a real
/// capture stack would.
///
/// JSON keys are snake_case (`noise_sigma`, `frame_interval_ms`, `costs.photo_init.ms`).
public struct CostProfile: Codable, Sendable, Hashable {
  /// A short name (`default`, `noisy`, `fast`).
  public var name: String
  /// What the profile models, for people.
  public var description: String
  /// The simulated sensor: full-resolution format, binned variants and pixel budget.
  public var sensor: Sensor
  /// Standard deviation of the additive sensor noise, in luma levels (0 = none).
  public var noiseSigma: Double
  /// The frame interval when the session does not choose a frame rate, in ms. When it does
  /// (`setActiveFormat(_:frameRate:)`), the interval is `1000 / frameRate` ms.
  public var frameIntervalMs: Double
  /// The autosuspend time, in ms: a device opened within this time of its last close (in any
  /// process, same boot) powers up warm, otherwise cold.
  public var warmWindowMs: Double
  /// The cost of each step.
  public var costs: Costs

  /// Creates a profile.
  public init(
    name: String, description: String, sensor: Sensor, noiseSigma: Double, frameIntervalMs: Double,
    warmWindowMs: Double, costs: Costs
  ) {
    self.name = name
    self.description = description
    self.sensor = sensor
    self.noiseSigma = noiseSigma
    self.frameIntervalMs = frameIntervalMs
    self.warmWindowMs = warmWindowMs
    self.costs = costs
  }

  enum CodingKeys: String, CodingKey {
    case name, description, sensor, costs
    case noiseSigma = "noise_sigma"
    case frameIntervalMs = "frame_interval_ms"
    case warmWindowMs = "warm_window_ms"
  }
}
