/// Benjamini–Hochberg's step-up procedure: which of many tests to call significant so that the
/// expected share of false ones among them is at most the rate (and, when no hypothesis is false,
/// the chance of calling any is at most the rate).
package enum FalseDiscovery {
  /// For each group of p-values (one group per series), which are kept at false discovery rate
  /// `rate`. The hypotheses are every p-value and one more per empty group (a series tested
  /// without a candidate): m = Σ max(1, kᵢ); kept are the p ≤ the largest p₍ⱼ₎ with p₍ⱼ₎ ≤ j·rate/m.
  package static func benjaminiHochberg(_ groups: [[Double]], rate: Double) -> [[Bool]] {
    let m = groups.reduce(0) { $0 + max(1, $1.count) }
    var limit = -1.0
    for (j, p) in groups.flatMap({ $0 }).sorted().enumerated() where p <= Double(j + 1) * rate / Double(m) {
      limit = p
    }
    return groups.map { $0.map { $0 <= limit } }
  }
}
