import ResultsSchema
import Statistics

extension Statistics {
  /// The distribution of one phase in one cell, for `results.json`: n, min, p50, p90, p99, max,
  /// mean, sample standard deviation, MAD outlier count and the samples in run order.
  /// Units are those of the samples (milliseconds in FirstFrame). Non-finite samples are dropped.
  /// An empty input gives n = 0 and zeros (JSON cannot hold NaN).
  public static func summarize(_ samples: [Double]) -> BenchResults.PhaseSummary {
    let finite = samples.filter(\.isFinite)
    guard !finite.isEmpty else {
      return BenchResults.PhaseSummary(
        n: 0, min: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0, stddev: 0, outliers: 0, samples: [])
    }
    let sorted = finite.sorted()
    return BenchResults.PhaseSummary(
      n: finite.count, min: sorted[0], p50: percentile(sorted: sorted, 0.5),
      p90: percentile(sorted: sorted, 0.9), p99: percentile(sorted: sorted, 0.99),
      max: sorted[sorted.count - 1], mean: mean(finite), stddev: standardDeviation(finite),
      outliers: outlierCount(finite), samples: finite)
  }
}
