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
  ///
  /// The n·m differences are never listed: each order statistic the median needs is the smallest
  /// value t with at least k differences ≤ t, found by bisecting over the doubles in order and
  /// counting with two pointers over the sorted samples (O((n + m) log) time, O(n + m) memory).
  /// The result is the same value as sorting every difference would give.
  public static func hodgesLehmannShift(from a: [Double], to b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return .nan }
    let x = a.sorted()
    let y = b.sorted()
    let total = x.count * y.count
    // Type-7 median of the sorted differences d: d[lo] + (h − lo)·(d[hi] − d[lo]), h = (N − 1)/2.
    let lo = (total - 1) / 2
    let low = smallestDifference(withAtLeast: lo + 1, x, y)
    guard total % 2 == 0 else { return low }
    let high =
      countDifferences(atMost: low, x, y) >= lo + 2 ? low : smallestDifference(withAtLeast: lo + 2, x, y)
    return low + 0.5 * (high - low)
  }

  /// How many differences y[j] − x[i] are ≤ `t` (x and y sorted ascending).
  private static func countDifferences(atMost t: Double, _ x: [Double], _ y: [Double]) -> Int {
    // y[j] − x[i] grows with j and shrinks as i grows: the boundary j only moves up with i.
    var count = 0
    var j = 0
    for i in x.indices {
      while j < y.count && y[j] - x[i] <= t { j += 1 }
      count += j
    }
    return count
  }

  /// The k-th smallest difference y[j] − x[i] (k ≥ 1): the smallest double t with at least k
  /// differences ≤ t, by bisection over the doubles' order.
  private static func smallestDifference(withAtLeast k: Int, _ x: [Double], _ y: [Double]) -> Double {
    // Doubles mapped to integers in the same order (the sign bit flips the rest).
    func key(_ v: Double) -> Int64 {
      let bits = Int64(bitPattern: v.bitPattern)
      return bits < 0 ? Int64.min - bits : bits
    }
    func value(_ k: Int64) -> Double {
      Double(bitPattern: UInt64(bitPattern: k < 0 ? Int64.min - k : k))
    }
    var lowKey = key(y[0] - x[x.count - 1])
    var highKey = key(y[y.count - 1] - x[0])
    while lowKey < highKey {
      let mid = lowKey + Int64(UInt64(bitPattern: highKey &- lowKey) / 2)
      if countDifferences(atMost: value(mid), x, y) >= k { highKey = mid } else { lowKey = mid + 1 }
    }
    return value(lowKey)
  }
}
