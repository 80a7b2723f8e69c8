import Foundation

/// Exact one-sided (Clopper–Pearson) confidence bounds of a binomial rate: what k events in n
/// trials show about the rate itself. 0 false alarms in 250 comparisons is not evidence of a rate
/// ≤ 1 %: its 95 % upper bound is 1.2 % (the rule of three's 3/250); 0 in 1000 shows ≤ 0.3 %.
public enum BinomialBounds {
  /// The one-sided upper bound: the largest rate p with P(X ≤ `events` | `trials`, p) ≥ 1 −
  /// `confidence`, e.g. 0.0030 for 0 of 1000 at 95 %. 1 when every trial was an event; NaN when
  /// `trials` is 0.
  public static func upper(events: Int, trials: Int, confidence: Double = 0.95) -> Double {
    guard trials > 0 else { return .nan }
    guard events < trials else { return 1 }
    // P(X ≤ k) falls as p rises: the bound is where it crosses 1 − confidence.
    return bisect { p in cumulative(atMost: events, trials: trials, rate: p) >= 1 - confidence }
  }

  /// The one-sided lower bound: the smallest rate p with P(X ≥ `events` | `trials`, p) ≥ 1 −
  /// `confidence`, e.g. 0.9970 for 1000 of 1000 at 95 %. 0 when there was no event; NaN when
  /// `trials` is 0.
  public static func lower(events: Int, trials: Int, confidence: Double = 0.95) -> Double {
    guard trials > 0 else { return .nan }
    guard events > 0 else { return 0 }
    return 1 - upper(events: trials - events, trials: trials, confidence: confidence)
  }

  /// P(X ≤ `k`) for X binomial(`trials`, `rate`), summed in log space (exact for the counts
  /// `bench power` uses).
  static func cumulative(atMost k: Int, trials n: Int, rate p: Double) -> Double {
    if p <= 0 { return 1 }
    if p >= 1 { return k >= n ? 1 : 0 }
    let logChooseN: Double = lgamma(Double(n + 1))
    var sum = 0.0
    for x in 0...k {
      let logChoose: Double = logChooseN - lgamma(Double(x + 1)) - lgamma(Double(n - x + 1))
      sum += exp(logChoose + Double(x) * log(p) + Double(n - x) * log1p(-p))
    }
    return min(1, sum)
  }

  /// The largest p in [0, 1] for which `holds` is true, assuming it is true below some point and
  /// false above it (60 halvings: far below any rate's last printed digit).
  private static func bisect(_ holds: (Double) -> Bool) -> Double {
    var low = 0.0
    var high = 1.0
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if holds(mid) { low = mid } else { high = mid }
    }
    return low
  }
}
