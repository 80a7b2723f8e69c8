extension Statistics {
  /// The distribution-free confidence interval of the median: order statistics x₍ₖ₎ and
  /// x₍ₙ₋ₖ₊₁₎ (1-based, ascending) with k the largest rank for which P(B ≤ k − 1) ≤ (1 − level)/2,
  /// B binomial(n, ½) — the interval covers the population median with at least `level`
  /// whatever the distribution (Conover, *Practical Nonparametric Statistics*, §3.2). With too
  /// few samples for `level` (n ≤ 5 at 95 %), the interval is [min, max] and covers less: the
  /// data cannot say more. NaN bounds when `samples` is empty. Units are the samples' (ms).
  public static func medianInterval(_ samples: [Double], level: Double = 0.95) -> ConfidenceInterval {
    let sorted = samples.sorted()
    let n = sorted.count
    guard n > 0 else { return ConfidenceInterval(lower: .nan, upper: .nan, level: level) }
    let tail = (1 - level) / 2
    var k = 1
    while k < (n + 1) / 2 && BinomialBounds.cumulative(atMost: k, trials: n, rate: 0.5) <= tail { k += 1 }
    return ConfidenceInterval(lower: sorted[k - 1], upper: sorted[n - k], level: level)
  }
}
