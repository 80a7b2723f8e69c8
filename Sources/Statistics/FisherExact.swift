import Foundation

/// Fisher's exact test on a 2 × 2 table of failed and ok runs: is the failure rate of the
/// results higher than the baseline's?
///
/// Given both cells' runs and the failures of the two together, the failures that fall into the
/// results follow a hypergeometric distribution under "the same failure rate"; the one-sided
/// p-value is the chance of `failed` or more.
public enum FisherExact {
  /// P(X ≥ `failed`) for X hypergeometric: `runs` draws from `runs + baselineRuns` runs of which
  /// `failed + baselineFailed` failed. 1 when nothing failed in the results.
  public static func greaterPValue(failed: Int, runs: Int, baselineFailed: Int, baselineRuns: Int) -> Double {
    let total = runs + baselineRuns
    let failures = failed + baselineFailed
    guard failed > 0, runs > 0, baselineRuns >= 0, failures <= total else { return 1 }
    func logChoose(_ n: Int, _ k: Int) -> Double {
      lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
    let denominator = logChoose(total, runs)
    var p = 0.0
    for x in failed...min(failures, runs) where runs - x <= total - failures {
      p += exp(logChoose(failures, x) + logChoose(total - failures, runs - x) - denominator)
    }
    return min(1, p)
  }
}
