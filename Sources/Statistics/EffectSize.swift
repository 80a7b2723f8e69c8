import Sampling

/// Effect sizes for two samples, to say *how much* as well as *whether*.
///
/// Both are defined over all n₁ × n₂ pairs but computed without visiting them (a results file
/// may hold millions of runs of one phase): Cliff's delta from the mid-ranks in O(n log n), the
/// Hodges–Lehmann shift by selection in the sorted difference matrix in O(n log n) expected time
/// and O(n) memory. Both equal their pair-by-pair definitions exactly.
public enum EffectSize {
  /// Cliff's delta of `a` against `b`: P(a > b) − P(a < b) over all pairs, in [−1, 1].
  /// Equal to the rank-biserial correlation (U₁ − U₂)/(n₁n₂) of the Mann–Whitney test.
  /// −1 means every `a` is smaller (for durations: `a` always faster).
  ///
  /// Computed as 2U_a/(n₁n₂) − 1 with U_a = R_a − n_a(n_a + 1)/2 from the mid-ranks: U_a counts
  /// the pairs with a > b plus half the ties, so 2U_a − n₁n₂ is (a > b) − (a < b), a whole number
  /// that Double holds exactly below 2⁵³.
  public static func cliffsDelta(_ a: [Double], _ b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    let (ranks, _) = MannWhitney.midRanks(a + b)
    let na = Double(a.count)
    let pairs = na * Double(b.count)
    let ua = ranks[0..<a.count].reduce(0, +) - na * (na + 1) / 2
    return (2 * ua - pairs) / pairs
  }

  /// The Hodges–Lehmann shift from `a` to `b`: the median of all pairwise differences bⱼ − aᵢ,
  /// in the samples' unit (ms). Positive means `b` tends to be larger (slower).
  ///
  /// The n·m differences are never listed: each order statistic the median needs is the smallest
  /// value t with at least k differences ≤ t, found by bisecting over the doubles in order and
  /// counting with two pointers over the sorted samples (O((n + m) log) time, O(n + m) memory).
  /// The result is the same value as sorting every difference would give.
  ///
  /// Failed runs (`+∞`): a failed run against a finished one is a difference of ±∞; two failed
  /// runs are no difference (0), as the rank test counts them as a tie. So the shift is +∞ when
  /// more than half the pairs put `b`'s failed runs against `a`'s finished ones, and finite while
  /// the median pair is between finished runs.
  public static func hodgesLehmannShift(from a: [Double], to b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return .nan }
    let matrix = DifferenceMatrix(a: a.sorted(), b: b.sorted())
    let count = a.count * b.count
    if count % 2 == 1 { return matrix.select(count / 2) }
    // Interpolated as `Statistics.median` does (type 7), so both give the same double.
    return Percentile.interpolate(matrix.select(count / 2 - 1), matrix.select(count / 2), fraction: 0.5)
  }
}

/// The n_a × n_b matrix of differences b[j] − a[i] for ascending `a` and `b`, never built: each
/// row rises with j and the rows fall with i (rounding is monotonic, so this holds for the
/// computed differences too), which lets one pass with two pointers count the entries below a value.
/// ∞ − ∞ (two failed runs) is 0, which keeps the order: the failed runs are the last rows and
/// columns, where the other entries are −∞ (in a row) and +∞ (in a column).
struct DifferenceMatrix {
  let a: [Double]
  let b: [Double]

  func value(_ i: Int, _ j: Int) -> Double { Self.difference(b[j], a[i]) }

  /// `y − x`, with ∞ − ∞ (both runs failed) as 0 instead of NaN.
  static func difference(_ y: Double, _ x: Double) -> Double {
    let d = y - x
    return d.isNaN && x == y ? 0 : d
  }

  /// For each row, how many entries are below `pivot` and how many are at most `pivot`.
  /// One pass, O(n_a + n_b): row i's entries are smaller than row i−1's, so its counts are at
  /// least the last ones.
  func rowCounts(around pivot: Double) -> (below: [Int], atMost: [Int]) {
    var below = [Int](repeating: 0, count: a.count)
    var atMost = [Int](repeating: 0, count: a.count)
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        var j = 0
        var k = 0
        for i in 0..<a.count {
          while j < b.count && Self.difference(b[j], a[i]) < pivot { j += 1 }
          if k < j { k = j }
          while k < b.count && Self.difference(b[k], a[i]) <= pivot { k += 1 }
          below[i] = j
          atMost[i] = k
        }
      }
    }
    return (below, atMost)
  }

  /// The `k`-th smallest entry (from 0) of the matrix, exactly as the differences compute.
  ///
  /// Keeps, per row, the window of columns that may still hold it; picks a pivot uniformly among
  /// the entries left (a fixed seed: the answer does not depend on it, only the work), counts the
  /// entries below and at most the pivot, and keeps the side that holds rank `k`. Once few
  /// entries are left they are sorted. Expected O(log(n_a·n_b)) rounds of O(n_a + n_b).
  func select(_ k: Int) -> Double {
    var low = [Int](repeating: 0, count: a.count)
    var high = [Int](repeating: b.count, count: a.count)
    var rng = SplitMix64(seed: 0x4C48_5345_4C45_4354)
    let enoughToSort = Swift.max(32, a.count + b.count)
    while true {
      let left = zip(low, high).reduce(0) { $0 + ($1.1 - $1.0) }
      if left <= enoughToSort {
        var entries: [Double] = []
        entries.reserveCapacity(left)
        for i in a.indices { for j in low[i]..<high[i] { entries.append(value(i, j)) } }
        entries.sort()
        return entries[k - low.reduce(0, +)]
      }
      var r = rng.nextIndex(below: left)
      var row = 0
      while r >= high[row] - low[row] {
        r -= high[row] - low[row]
        row += 1
      }
      let pivot = value(row, low[row] + r)
      let (below, atMost) = rowCounts(around: pivot)
      if k < below.reduce(0, +) {
        for i in a.indices { high[i] = Swift.max(low[i], Swift.min(high[i], below[i])) }
        continue
      }
      if k < atMost.reduce(0, +) { return pivot }
      for i in a.indices { low[i] = Swift.min(high[i], Swift.max(low[i], atMost[i])) }
    }
  }
}
