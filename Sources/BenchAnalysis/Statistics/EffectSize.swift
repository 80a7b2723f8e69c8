/// Effect sizes for two samples, to say *how much* as well as *whether*.
public enum EffectSize {
  /// Cliff's delta of `a` against `b`: P(a > b) − P(a < b) over all pairs, in [−1, 1].
  /// Equal to the rank-biserial correlation (U₁ − U₂)/(n₁n₂) of the Mann–Whitney test.
  /// −1 means every `a` is smaller (for durations: `a` always faster).
  public static func cliffsDelta(_ a: [Double], _ b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var greater = 0
    var less = 0
    for x in a {
      for y in b {
        if x > y { greater += 1 } else if x < y { less += 1 }
      }
    }
    return Double(greater - less) / Double(a.count * b.count)
  }

  /// The Hodges–Lehmann shift from `a` to `b`: the median of all pairwise differences bⱼ − aᵢ,
  /// in the samples' unit (ms). Positive means `b` tends to be larger (slower).
  public static func hodgesLehmannShift(from a: [Double], to b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return .nan }
    var diffs: [Double] = []
    diffs.reserveCapacity(a.count * b.count)
    for x in a { for y in b { diffs.append(y - x) } }
    return Statistics.median(diffs)
  }
}
