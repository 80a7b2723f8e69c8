extension BenchResults {
  /// A distribution of one phase in one cell. Milliseconds, from `CLOCK_MONOTONIC` event stamps.
  ///
  /// Percentiles are type 7 (linear interpolation between closest ranks; see `Sampling.Percentile`). With
  /// no samples every value is 0 and `n` is 0 (JSON cannot hold NaN).
  public struct PhaseSummary: Codable, Sendable, Hashable {
    /// Always `ms`: the unit of `min` … `stddev` and `samples`.
    public var unit: String = "ms"
    /// How many samples: the ok runs in which the phase occurred.
    public var n: Int
    /// The shortest sample, ms.
    public var min: Double
    /// The median, ms.
    public var p50: Double
    /// The 90th percentile, ms.
    public var p90: Double
    /// The 99th percentile, ms; with few runs, close to `max` (read it as the worst run).
    public var p99: Double
    /// The longest sample, ms.
    public var max: Double
    /// The arithmetic mean, ms.
    public var mean: Double
    /// The sample standard deviation (n − 1 in the denominator), ms; 0 for fewer than two samples.
    public var stddev: Double
    /// Samples further than 3.5 robust z-scores (MAD-based) from the median.
    public var outliers: Int
    /// Every sample, in run order, ms.
    public var samples: [Double]
    /// Creates a summary (`Statistics.summarize(_:)` computes one from samples).
    public init(
      n: Int, min: Double, p50: Double, p90: Double, p99: Double, max: Double, mean: Double,
      stddev: Double, outliers: Int, samples: [Double]
    ) {
      self.n = n
      self.min = min
      self.p50 = p50
      self.p90 = p90
      self.p99 = p99
      self.max = max
      self.mean = mean
      self.stddev = stddev
      self.outliers = outliers
      self.samples = samples
    }
  }
}
