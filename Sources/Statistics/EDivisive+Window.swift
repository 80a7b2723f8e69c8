extension EDivisive {
  /// One window [a, b) of a series, prepared once for the statistic at every split of any order
  /// of its points in O(n log n) rather than the reference's O(n²):
  ///
  /// Moving split τ one point on moves the point p = order[τ] from Y into X; t needs
  /// Σ_{i∈X}|x_p − xᵢ| (the column the reference sums) and Σ_{j∈Y}|x_p − xⱼ| (its row). The first is
  /// a query of a Fenwick tree of the values already in X, by rank (how many are below x_p and
  /// their sum, and the same above); the second is Σ over the whole window (which does not depend
  /// on the order, so it is computed once, from the sorted values) minus the first. The values are
  /// taken relative to the window's smallest, so the sums lose no digits to a large offset; the
  /// statistics agree with the reference's to about 1e-12 relative (`EDivisiveTests`).
  ///
  /// Not `Sendable`: it holds scratch buffers, reused for every order (one window per thread).
  package final class Window {
    /// The window's first index in the series.
    package let start: Int
    /// Each point's value minus the window's smallest, by offset in the window.
    private let values: [Double]
    /// Each point's rank (1-based, ties broken by offset) among the window's values.
    private let ranks: [Int]
    /// Σⱼ |xᵢ − xⱼ| over the window, per point.
    private let rowTotals: [Double]
    /// Σ over the window's pairs (each once) of |xᵢ − xⱼ|.
    private let pairTotal: Double
    /// The Fenwick trees: counts and sums of the values in X, by rank.
    private var counts: [Int]
    private var sums: [Double]
    /// The statistics of the last order asked for.
    private var t: [Double]

    /// Prepares the window `range` of `series`.
    package init(_ series: [Double], _ range: Range<Int>) {
      start = range.lowerBound
      let n = range.count
      let low = series[range].min() ?? 0
      let values = series[range].map { $0 - low }
      self.values = values
      let sorted = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
      var ranks = [Int](repeating: 0, count: n)
      var rowTotals = [Double](repeating: 0, count: n)
      var prefix = 0.0  // the sum of the sorted values before position k
      let total = values.reduce(0, +)
      for (k, i) in sorted.enumerated() {
        ranks[i] = k + 1
        let v = values[i]
        rowTotals[i] = (Double(k) * v - prefix) + (total - prefix - v - Double(n - k - 1) * v)
        prefix += v
      }
      self.ranks = ranks
      self.rowTotals = rowTotals
      pairTotal = rowTotals.reduce(0, +) / 2
      counts = [Int](repeating: 0, count: n + 1)
      sums = [Double](repeating: 0, count: n + 1)
      t = [Double](repeating: 0, count: n)
    }

    /// The number of points.
    package var count: Int { values.count }

    /// t(τ) for every split τ = 0 ..< count of the points in `order` (offsets in the window, in
    /// that order); the buffer is overwritten by the next call.
    package func statistics(order: [Int]) -> [Double] {
      // The scratch buffers are borrowed once per call: the class's stored arrays, indexed in
      // the loop, would each be an exclusivity check (half the time of `detect`).
      counts.withUnsafeMutableBufferPointer { counts in
        sums.withUnsafeMutableBufferPointer { sums in
          t.withUnsafeMutableBufferPointer { t in
            fill(t, order: order, counts: counts, sums: sums)
          }
        }
      }
      return t
    }

    /// `statistics(order:)` into `t`, with `counts` and `sums` as the Fenwick trees.
    private func fill(
      _ t: UnsafeMutableBufferPointer<Double>, order: [Int], counts: UnsafeMutableBufferPointer<Int>,
      sums: UnsafeMutableBufferPointer<Double>
    ) {
      let n = order.count
      counts.update(repeating: 0)
      sums.update(repeating: 0)
      var xy = 0.0
      var x = 0.0
      var y = pairTotal
      var inserted = 0
      var insertedSum = 0.0
      for tau in 0..<n {
        let nn = Double(tau)
        let m = Double(n - tau)
        let xyAverage = nn > 0 && m > 0 ? xy / (nn * m) : 0
        let xAverage = nn > 0 ? 2 * x / (nn * nn) : 0
        let yAverage = m > 0 ? 2 * y / (m * m) : 0
        t[tau] = nn * m / (nn + m) * (2 * xyAverage - xAverage - yAverage)
        let p = order[tau]
        let v = values[p]
        let rank = ranks[p]
        var below = 0
        var belowSum = 0.0
        var k = rank - 1
        while k > 0 {
          below += counts[k]
          belowSum += sums[k]
          k &= k - 1
        }
        let columnDelta =
          (Double(below) * v - belowSum) + (insertedSum - belowSum - Double(inserted - below) * v)
        let rowDelta = rowTotals[p] - columnDelta
        xy += rowDelta - columnDelta
        x += columnDelta
        y -= rowDelta
        k = rank
        while k <= n {
          counts[k] += 1
          sums[k] += v
          k += k & -k
        }
        inserted += 1
        insertedSum += v
      }
    }

    /// The split of `order` with the largest statistic, at least `minimumSegment` points from
    /// each end (the first on a tie), as an offset into `order`; nil when the window is too short.
    package func bestSplit(order: [Int], minimumSegment: Int) -> (offset: Int, statistic: Double)? {
      guard order.count >= 2 * minimumSegment, !order.isEmpty else { return nil }
      let t = statistics(order: order)
      var best = minimumSegment
      for tau in minimumSegment...(order.count - minimumSegment) where t[tau] > t[best] { best = tau }
      return (best, t[best])
    }
  }
}
