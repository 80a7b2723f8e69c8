extension CostProfile {
  /// The ranges a profile's values must be in: what the synthetic camera can carry out. Each
  /// bound says what goes wrong beyond it.
  public enum Limits {
    /// A cost, ms: a wait or CPU time of up to an hour (bench's longest `--run-timeout`).
    /// Beyond about 1.8e13 ms the wait in ns overflows the clock's UInt64.
    public static let costMs: ClosedRange<Double> = 0...3_600_000
    /// Frame rates, frames per second: 1e9 / rate ns per frame must be neither 0 nor beyond the clock.
    public static let frameRate: ClosedRange<Double> = 1...1000
    /// The frame interval without a chosen rate, ms (the same frame rates, 1…1000 fps).
    public static let frameIntervalMs: ClosedRange<Double> = 1...1000
    /// How long after a close the device is still warm, ms: up to a day.
    public static let warmWindowMs: ClosedRange<Double> = 0...86_400_000
    /// Pixels per second the sensor sustains.
    public static let pixelBudget: ClosedRange<Double> = 1...1e12
    /// Additive noise, luma levels (the noise table holds ±127).
    public static let noiseSigma: ClosedRange<Double> = 0...64
    /// A format's width in pixels: the light board's minimum up to the display's maximum side.
    public static let width: ClosedRange<Int> = 160...8192
    /// A format's height in pixels: the light board's minimum up to the display's maximum side.
    public static let height: ClosedRange<Int> = 120...8192
    /// Pixels in one frame: 8192 × 4320 (8K). The photo output alone keeps three full-resolution
    /// YUV stills (160 MB at this size) and the movie ring eight frames.
    public static let pixels = 8192 * 4320
    /// Binned formats a sensor lists.
    public static let binnedFormats = 16
  }
}
