/// Windowed E-divisive with a Student's t merge: the change-point method of Apache Otava
/// (formerly Hunter; docs "Change point detection"), written here from its description, with
/// two changes that let a nightly run it on ~100 series without crying wolf:
///
/// 1. Candidates: the series is cut into windows of `windowLength` points, each starting half a
///    window after the last, and one more ending at the newest point. In each window the split
///    with the largest E-divisive statistic (`EDivisive.Window`, one point on a side allowed, so
///    a step on the newest night is a candidate) is kept when its t-test (below) within the
///    window gives p ≤ `candidatePValue` (0.05), and both sides are searched again the same way
///    (whether it was kept or not).
/// 2. Merge: for every candidate, the points since the previous candidate and until the next
///    one — at most `testSpan` (two windows) on each side, so a slow drift over months does not
///    make two long segments differ — are compared with Student's two-sample t-test (pooled variance).
///    While one has p > `maxPValue` or moves the mean by less than `minimumMagnitude`, the
///    weakest such is dropped and the others are tested again with their new neighbours.
///
/// The p-value of a split is the t-test's times the splits it was chosen from (n₁ + n₂ − 1:
/// Bonferroni for picking the best one; Otava takes the t-test's as it is), so a flat series
/// shows a change point with probability about `maxPValue` per window, not a window's number
/// of splits times that. Across series `HistoryChangePoint.controlFalseDiscoveries` applies
/// Benjamini–Hochberg. No shuffles: the answer is a function of the series.
package enum WindowedChangePoints {
  /// How to search.
  package struct Options: Sendable, Hashable {
    /// Points per window; the merge's t-test compares at most twice as many on each side.
    package var windowLength = 10
    /// A change point's (adjusted) p-value must be at most this.
    package var maxPValue = 0.001
    /// A split within a window is a candidate when its p-value is at most this (the merge then
    /// holds it to `maxPValue` over up to two windows a side: a 5 % step a few points into a
    /// window of 10 would not reach 0.001 there).
    package var candidatePValue: Double { max(maxPValue, 0.05) }
    /// A change point must move the mean by at least this share of the mean before it (0.02:
    /// 2 %): what a nightly's slow drift moves in a few weeks, and less than the 5 % a gate
    /// judges (Otava's `min_magnitude`, 0 there by default).
    package var minimumMagnitude = 0.02

    /// The most points on each side of a change point that its t-test compares.
    package var testSpan: Int { 2 * windowLength }

    /// `bench history detect`'s defaults: windows of 10 nights, p ≤ 0.001 (docs/history.md,
    /// docs/measurements/2026-12-07-history-detection.md).
    package static let history = Options()

    /// Creates options (a window of at least 3 points).
    package init(windowLength: Int = 10, maxPValue: Double = 0.001, minimumMagnitude: Double = 0.02) {
      self.windowLength = max(3, windowLength)
      self.maxPValue = maxPValue
      self.minimumMagnitude = max(0, minimumMagnitude)
    }
  }

  /// One change point: the series splits before `index`.
  package struct ChangePoint: Sendable, Hashable, Codable {
    /// The first point after the change (0-based).
    package var index: Int
    /// The t statistic of the points after against those before (positive: higher after).
    package var statistic: Double
    /// The t-test's two-sided p-value times the splits it was chosen from.
    package var pValue: Double
    /// The mean after over the mean before, minus 1 (the points the t-test compared).
    package var magnitude: Double
  }

  /// The change points of `series` in index order; see the type's documentation.
  package static func changePoints(_ series: [Double], options: Options = Options()) -> [ChangePoint] {
    let n = series.count
    guard n >= 3 else { return [] }
    let w = min(options.windowLength, n)
    var starts = Array(stride(from: 0, to: max(1, n - w + 1), by: max(1, w / 2)))
    if starts.last != n - w { starts.append(n - w) }
    var candidates = Set<Int>()
    for start in starts { split(series, start..<(start + w), options: options, into: &candidates) }
    var points = candidates.sorted()
    while !points.isEmpty {
      let tested = points.indices.map { test(series, points, at: $0, options: options) }
      // The weakest: a failing one (p too large or the move too small) before a passing one,
      // then the largest p.
      func fails(_ c: ChangePoint) -> Bool {
        c.pValue > options.maxPValue || abs(c.magnitude) < options.minimumMagnitude
      }
      guard
        let worst = tested.indices.max(by: {
          (fails(tested[$0]) ? 1 : 0, tested[$0].pValue) < (fails(tested[$1]) ? 1 : 0, tested[$1].pValue)
        })
      else { break }
      if !fails(tested[worst]) { return tested }
      points.remove(at: worst)
    }
    return []
  }

  /// Adds to `found` the splits of `range` that pass the t-test, and theirs within each side.
  static func split(_ series: [Double], _ range: Range<Int>, options: Options, into found: inout Set<Int>) {
    guard range.count >= 3 else { return }
    let window = EDivisive.Window(series, range)
    guard let best = window.bestSplit(order: Array(0..<range.count), minimumSegment: 1),
      best.offset > 0, best.offset < range.count
    else { return }
    let at = range.lowerBound + best.offset
    // A split that fails may still hold one on each side (a regression fixed within the window):
    // both sides are searched either way.
    if adjustedTest(series[range.lowerBound..<at], series[at..<range.upperBound]).pValue
      <= options.candidatePValue
    {
      found.insert(at)
    }
    split(series, range.lowerBound..<at, options: options, into: &found)
    split(series, at..<range.upperBound, options: options, into: &found)
  }

  /// The merge's test of `points[k]` between its neighbours, at most a window on each side.
  static func test(_ series: [Double], _ points: [Int], at k: Int, options: Options) -> ChangePoint {
    let at = points[k]
    let span = options.testSpan
    let low = max(k > 0 ? points[k - 1] : 0, at - span)
    let high = min(k + 1 < points.count ? points[k + 1] : series.count, at + span)
    let result = adjustedTest(series[low..<at], series[at..<high])
    let before = series[low..<at].reduce(0, +) / Double(at - low)
    let after = series[at..<high].reduce(0, +) / Double(high - at)
    let magnitude = before != 0 ? after / before - 1 : (after == 0 ? 0 : .infinity)
    return ChangePoint(index: at, statistic: result.t, pValue: result.pValue, magnitude: magnitude)
  }

  /// The t-test of `after` against `before`, its p-value times the n₁ + n₂ − 1 splits.
  static func adjustedTest(_ before: ArraySlice<Double>, _ after: ArraySlice<Double>) -> (
    t: Double, pValue: Double
  ) {
    let result = StudentT.test(before, after)
    return (result.t, min(1, result.pValue * Double(before.count + after.count - 1)))
  }
}
