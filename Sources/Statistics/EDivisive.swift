import Sampling

/// E-divisive means with a permutation significance test (Matteson & James, "A Nonparametric
/// Approach for Multiple Change Point Analysis of Multivariate Data", 2014), as MongoDB's
/// `signal-processing-algorithms` implements it (`energy_statistics.e_divisive`, version 2.1.6;
/// `scripts/make-edivisive-fixtures.py` checks this against it):
///
/// - The distance matrix is |xᵢ − xⱼ|. For a window [a, b) and a split τ, X = [a, τ), Y = [τ, b),
///   n = |X|, m = |Y|, and the test statistic is
///   t(τ) = nm/(n + m) · (2·ΣΣ|X−Y|/(nm) − ΣΣ|X−X|/n² − ΣΣ|Y−Y|/m²) (V-statistics: the
///   diagonal's zeros are counted).
/// - Each round takes, in every window between the change points found so far, the τ with the
///   largest t (the first such τ), and the best of those candidates over all windows.
/// - Its significance: `permutations` times, shuffle each window's points, take the largest t
///   over all windows; p = (times that largest was ≥ the candidate's t) / (permutations + 1).
///   The candidate is a change point when p ≤ `alpha`; then the next round begins, else it stops.
///
/// One addition: `minimumSegment` keeps every split at least that many points from a window's
/// ends (the reference has none: `minimumSegment` 1 is its behaviour). The shuffles come from
/// `SplitMix64(seed:)`, so a seed always gives the same p-values; the reference's come from
/// NumPy's generator, so p-values agree only in distribution, locations exactly.
package enum EDivisive {
  /// How to search.
  package struct Options: Sendable, Hashable {
    /// The significance level: a candidate with p ≤ `alpha` is a change point.
    package var alpha = 0.05
    /// Shuffles per significance test.
    package var permutations = 100
    /// The fewest points on each side of a split within its window (1: the reference's search).
    package var minimumSegment = 1
    /// The shuffles' seed.
    package var seed: UInt64 = 0xED1_7151_7E00_0001

    /// `bench history detect`'s defaults: alpha 0.002, 500 permutations, 3 points on each side.
    /// With p = (shuffles at least as large)/(permutations + 1), as the reference counts it, a
    /// series without a change shows one with probability 2/501 ≈ 0.4 % (at most one shuffle may
    /// reach the candidate); the reference's 0.05 and 100 gave 4.5 % of flat 60-point series a
    /// change point (issue 26 asks ≤ 1 %; Benchmarks/history-accuracy, docs/history.md).
    package static let history = Options(alpha: 0.002, permutations: 500, minimumSegment: 3)

    /// Creates options.
    package init(alpha: Double = 0.05, permutations: Int = 100, minimumSegment: Int = 1, seed: UInt64? = nil)
    {
      self.alpha = alpha
      self.permutations = permutations
      self.minimumSegment = max(1, minimumSegment)
      if let seed { self.seed = seed }
    }
  }

  /// One change point: the series splits before `index`.
  package struct ChangePoint: Sendable, Hashable, Codable {
    /// The first point after the change (0-based).
    package var index: Int
    /// The test statistic t at the split.
    package var statistic: Double
    /// The permutation test's p-value.
    package var pValue: Double
  }

  /// The change points of `series`, in the order found (most significant first); see the type's
  /// documentation. Each window is prepared once (`Window`: the statistic at every split in
  /// O(n log n)), and a significance test stops shuffling as soon as its p-value can no longer
  /// reach `alpha` (the search ends there; it would have ended after the last shuffle too, so the
  /// change points are those of the full test).
  package static func changePoints(_ series: [Double], options: Options = Options()) -> [ChangePoint] {
    var found: [ChangePoint] = []
    var prepared: [Int: (window: Window, best: (index: Int, statistic: Double)?)] = [:]  // a·(n+1) + b
    var rng = SplitMix64(seed: options.seed)
    while true {
      let windows = self.windows(found.map(\.index), count: series.count).map { (a, b) in
        let key = a * (series.count + 1) + b
        if let known = prepared[key] { return known }
        let window = Window(series, a..<b)
        let best = window.bestSplit(order: Array(0..<(b - a)), minimumSegment: options.minimumSegment)
        let entry = (window, best.map { (index: a + $0.offset, statistic: $0.statistic) })
        prepared[key] = entry
        return entry
      }
      var chosen: (index: Int, statistic: Double)?
      for w in windows {
        if let c = w.best, c.statistic > (chosen?.statistic ?? -.infinity) { chosen = c }
      }
      guard let chosen else { return found }
      var atLeast = 0
      for _ in 0..<options.permutations {
        var largest = -Double.infinity
        for (window, _) in windows {
          var order = Array(0..<window.count)
          shuffle(&order, &rng)
          if let s = window.bestSplit(order: order, minimumSegment: options.minimumSegment) {
            largest = max(largest, s.statistic)
          }
        }
        if largest >= chosen.statistic { atLeast += 1 }
        // p only grows with more shuffles: once above alpha, the candidate is not significant.
        if Double(atLeast) / Double(options.permutations + 1) > options.alpha { return found }
      }
      let p = Double(atLeast) / Double(options.permutations + 1)
      guard p <= options.alpha else { return found }
      found.append(ChangePoint(index: chosen.index, statistic: chosen.statistic, pValue: p))
    }
  }

  /// The windows between `changePoints` over `count` points: [0, c₁), [c₁, c₂), …, [cₖ, count).
  static func windows(_ changePoints: [Int], count: Int) -> [(Int, Int)] {
    let bounds = [0] + changePoints.sorted() + [count]
    return zip(bounds, bounds.dropFirst()).map { ($0, $1) }
  }

  /// The statistic t(τ) for every split τ = 0 ..< order.count of the points `order` (indices
  /// into the series, in that order): the reference's `_calculate_t_stats`, O(n²), kept as the
  /// definition `Window`'s O(n log n) statistics are tested against.
  package static func statistics(_ distances: DistanceMatrix, order: [Int]) -> [Double] {
    let count = order.count
    var out = [Double](repeating: 0, count: count)
    var xy = 0.0
    var x = 0.0
    var y = 0.0
    for row in 0..<count {
      for column in row..<count { y += distances[order[row], order[column]] }
    }
    for tau in 0..<count {
      let n = Double(tau)
      let m = Double(count - tau)
      let xyAverage = n > 0 && m > 0 ? xy / (n * m) : 0
      let xAverage = n > 0 ? 2 * x / (n * n) : 0
      let yAverage = m > 0 ? 2 * y / (m * m) : 0
      out[tau] = n * m / (n + m) * (2 * xyAverage - xAverage - yAverage)
      var columnDelta = 0.0
      for i in 0..<tau { columnDelta += distances[order[i], order[tau]] }
      var rowDelta = 0.0
      for j in tau..<count { rowDelta += distances[order[tau], order[j]] }
      xy += rowDelta - columnDelta
      x += columnDelta
      y -= rowDelta
    }
    return out
  }

  /// The split of `order` with the largest statistic, at least `minimumSegment` points from each
  /// end (the first on a tie), as an index into the series; nil when the window is too short.
  package static func bestSplit(_ distances: DistanceMatrix, order: [Int], minimumSegment: Int) -> (
    index: Int, statistic: Double
  )? {
    guard order.count >= 2 * minimumSegment, !order.isEmpty else { return nil }
    let t = statistics(distances, order: order)
    var best = minimumSegment
    for tau in minimumSegment...(order.count - minimumSegment) where t[tau] > t[best] { best = tau }
    // The window's first point is its start index (an unshuffled window is a..<b in order).
    return (order[0] + best, t[best])
  }

  /// Fisher–Yates with `rng` (`SplitMix64.shuffle`).
  package static func shuffle(_ order: inout [Int], _ rng: inout SplitMix64) { rng.shuffle(&order) }

  /// |xᵢ − xⱼ| for a series, computed once.
  package struct DistanceMatrix: Sendable {
    private let values: [Double]
    /// The series.
    package init(_ series: [Double]) { values = series }
    /// |xᵢ − xⱼ|.
    package subscript(i: Int, j: Int) -> Double { abs(values[i] - values[j]) }
  }
}
