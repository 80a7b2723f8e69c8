/// Windowed E-divisive with a Student's t merge: the change-point method of Apache Otava
/// (formerly Hunter; docs "Change point detection"), written here from its description, with
/// three changes that let a nightly run it on ~100 series without crying wolf and act on its newest
/// night:
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
/// of splits times that.
///
/// 3. The newest night, what a nightly acts on, has a test of its own: the last point (the last
///    k for k = 1 … `newestNights`, 1 by default) against up to `newestSpan` (three windows)
///    before it, back to the previous change point, its t-test p-value times 2 · `newestNights`
///    — Bonferroni over those few splits and over the two tests a series now gets, not over every
///    split of a window. When it passes (p ≤ `maxPValue`, a move of at least `minimumMagnitude`)
///    it is a change point, or replaces the merge's within ±1 of it when its p-value is smaller:
///    a 5 % step (≈ 5 σ) is flagged the night it is on in most series, not only once a second
///    night confirms it (docs/measurements/2026-12-07-history-detection.md: with 2 or 3 newest
///    nights a three-night excursion of the drift is flagged too, 2 false alarms per 100 nights).
///
/// Across series `HistoryChangePoint.controlFalseDiscoveries` applies Benjamini–Hochberg. No
/// shuffles: the answer is a function of the series.
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

    /// The newest splits tested on their own (the last 1, … `newestNights` points against those
    /// before them); 0 tests none.
    package var newestNights = 1

    /// The most points on each side of a change point that its t-test compares.
    package var testSpan: Int { 2 * windowLength }
    /// The most points before the newest nights that their test compares (three windows: a longer
    /// span lets a slow drift look like a step, a shorter one leaves a single night's test weak).
    package var newestSpan: Int { 3 * windowLength }

    /// `bench history detect`'s defaults: windows of 10 nights, p ≤ 0.001 (docs/history.md,
    /// docs/measurements/2026-12-07-history-detection.md).
    package static let history = Options()

    /// Creates options (a window of at least 3 points).
    package init(
      windowLength: Int = 10, maxPValue: Double = 0.001, minimumMagnitude: Double = 0.02,
      newestNights: Int = 1
    ) {
      self.windowLength = max(3, windowLength)
      self.maxPValue = maxPValue
      self.minimumMagnitude = max(0, minimumMagnitude)
      self.newestNights = max(0, newestNights)
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
    return withNewest(series, merged(series, candidates.sorted(), options: options), options: options)
  }

  /// The merge (2. in the type's documentation): the candidates that hold between their neighbours.
  static func merged(_ series: [Double], _ candidates: [Int], options: Options) -> [ChangePoint] {
    var points = candidates
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

  /// `found` with the newest nights' own test (3. in the type's documentation).
  static func withNewest(_ series: [Double], _ found: [ChangePoint], options: Options) -> [ChangePoint] {
    let n = series.count
    var best: ChangePoint?
    for k in stride(from: 1, through: options.newestNights, by: 1) {
      let at = n - k
      // Back to the previous change point (one within ±1 of this split is this change).
      let previous = found.last { $0.index < at - 1 }?.index ?? 0
      let low = max(previous, at - options.newestSpan)
      guard at - low >= 2, !found.contains(where: { $0.index > at + 1 }) else { continue }
      let result = StudentT.test(series[low..<at], series[at..<n])
      let before = series[low..<at].reduce(0, +) / Double(at - low)
      let after = series[at..<n].reduce(0, +) / Double(k)
      let magnitude = before != 0 ? after / before - 1 : (after == 0 ? 0 : .infinity)
      let point = ChangePoint(
        index: at, statistic: result.t, pValue: min(1, result.pValue * Double(2 * options.newestNights)),
        magnitude: magnitude)
      guard point.pValue <= options.maxPValue, abs(magnitude) >= options.minimumMagnitude,
        point.pValue < best?.pValue ?? .infinity
      else { continue }
      best = point
    }
    guard let best else { return found }
    if let same = found.firstIndex(where: { abs($0.index - best.index) <= 1 }) {
      var points = found
      if best.pValue < points[same].pValue { points[same] = best }
      return points
    }
    return found + [best]
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
