/// Thresholds and known rates for `LiveFrameDetector`. Luma values are 8-bit levels (0–255).
public struct DetectorConfiguration: Sendable, Hashable {
  /// The sensor noise the change test must ignore: standard deviation per pixel, luma levels.
  public var noiseSigma: Double = 8
  /// How many standard deviations of noise a band or block difference must exceed to count as a change.
  public var significance: Double = 7
  /// A frame is blank when the range of its 8-pixel column-band and row-band means is below
  /// this (luma levels) …
  public var blankBandSpread: Double = 3
  /// … and the range of its 32×32-block means is below this (luma levels).
  public var blankBlockSpread: Double = 6
  /// Two images are the same content when no 8×8 cell's mean differs by more than this (luma levels).
  public var identicalTolerance: Double = 0.5
  /// The camera's frame interval in ns, if known; otherwise estimated from observed changes.
  public var cameraFrameIntervalNanoseconds: UInt64?
  /// The display's refresh interval in ns, if known; otherwise estimated from scanout times.
  public var refreshIntervalNanoseconds: UInt64?
  /// Whether to decode the light board.
  public var decodesLightBoard = true
  /// Change detection (no readable board): how many scanouts showing new images, each within
  /// the cadence's reach of the one before, make the first of them the first live frame.
  public var changeRunLength = 3
  /// The slowest camera the change run allows when `cameraFrameIntervalNanoseconds` is unknown:
  /// new images further apart than this (plus one refresh) do not belong to one run, ns
  /// (default 100 ms: 10 frames per second).
  public var slowestFrameIntervalNanoseconds: UInt64 = 100_000_000
  /// Slack on top of the cadence's reach for a change run, ns: scanouts fall on the refresh grid
  /// and the compositor wakes a little late now and then, so a gap of exactly two camera
  /// intervals plus a refresh may measure a little more. Nil: half the refresh interval.
  public var cadenceToleranceNanoseconds: UInt64?
  /// How many distinct non-blank images shown before the arm time make the pre-arm reference
  /// (the pre-lock frames and a cover): an image after it that is similar to any of them is stale.
  public var referenceImages = 4
  /// The pid written into events.
  public var pid: Int32 = 0
  /// At most this many events are kept per arm (counts go on).
  public var maxEvents = 10_000

  /// The defaults: noise sigma 8, significance 7, blank spreads 3 and 6, identical tolerance 0.5.
  public init() {}

  /// The defaults with known rates and a pid.
  public init(cameraFrameIntervalNanoseconds: UInt64?, refreshIntervalNanoseconds: UInt64?, pid: Int32 = 0) {
    self.cameraFrameIntervalNanoseconds = cameraFrameIntervalNanoseconds
    self.refreshIntervalNanoseconds = refreshIntervalNanoseconds
    self.pid = pid
  }
}
