/// The first scanout that showed a live scene after the probe was armed.
public struct FirstLiveFrame: Sendable, Hashable {
  /// What the probe was armed for (and since when).
  public var mode: ArmMode
  /// When the scanout that showed it happened: `CLOCK_MONOTONIC` ns.
  public var scanoutTime: UInt64
  /// How it was recognised.
  public var method: DetectionMethod
  /// The capture time read from the light board, in whole microseconds of `CLOCK_MONOTONIC`
  /// (board method only).
  public var captureTimeMicroseconds: UInt64?

  /// When the detector was sure (`CLOCK_MONOTONIC` ns): the scanout that completed the change
  /// run, or that showed the second board at the camera's cadence (board method).
  public var confirmedAt: UInt64?

  /// Creates the record.
  public init(
    mode: ArmMode, scanoutTime: UInt64, method: DetectionMethod, captureTimeMicroseconds: UInt64?,
    confirmedAt: UInt64? = nil
  ) {
    self.mode = mode
    self.scanoutTime = scanoutTime
    self.method = method
    self.captureTimeMicroseconds = captureTimeMicroseconds
    self.confirmedAt = confirmedAt
  }

  /// Milliseconds from the arm time to the scanout (`first_frame_observed` when armed at spawn or unlock).
  public var sinceArmMilliseconds: Double {
    (Double(scanoutTime) - Double(mode.since)) / 1e6
  }

  /// Glass-to-glass latency in milliseconds: scanout time − capture time (board method only).
  public var glassToGlassMilliseconds: Double? {
    captureTimeMicroseconds.map { (Double(scanoutTime) / 1e6) - Double($0) / 1e3 }
  }
}
