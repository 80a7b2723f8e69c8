import Statistics

/// A change point in one series of the history: where the detector (`HistoryDetector`) split it, the commits on
/// either side, and how much the medians moved.
package struct HistoryChangePoint: Sendable, Hashable, Codable {
  /// The machine's fingerprint.
  package var machine: String
  /// Its host name.
  package var hostname: String
  /// The camera.
  package var camera: String
  /// `condition/config`.
  package var cell: String
  /// The phase.
  package var phase: String
  /// The series' setup, every field (``HistorySetup``).
  package var setup: String
  /// What tells the series from the others of its cell and phase (``HistorySeries/Key/distinction``).
  package var distinction: String
  /// The first point after the change, 0-based in the series (its finite medians).
  package var index: Int
  /// The benchmark of that point.
  package var benchmark: Int64
  /// The last commit before the change: the regression is in `commitBefore..commitAfter`.
  package var commitBefore: String
  /// The first commit after it.
  package var commitAfter: String
  /// When the first benchmark after it ran.
  package var time: String
  /// The median of the run medians in the segment before, ms.
  package var medianBefore: Double
  /// The median of the run medians in the segment after, ms.
  package var medianAfter: Double
  /// after/before − 1 (0.05: 5 % slower).
  package var shift: Double
  /// Its 95 % percentile-bootstrap interval (`Bootstrap.ratioOfMediansInterval` of the two
  /// segments, minus 1); NaN bounds when the bootstrap refused.
  package var shiftInterval: [Double]
  /// The p-value: the windowed detector's adjusted t-test, or E-divisive's permutation test.
  package var pValue: Double
  /// The statistic at the split: the t-test's t (windowed) or E-divisive's t.
  package var statistic: Double

  /// The change points of `series`: E-divisive on its finite medians, each change point with the
  /// segments between its neighbours (in index order) for the shift.
  package static func detect(_ series: HistorySeries, options: EDivisive.Options) -> [HistoryChangePoint] {
    detect(series, detector: .edivisive(options))
  }

  /// The change points `detector` finds in `series`' finite medians, each with the segments
  /// between its neighbours (in index order) for the shift; not yet controlled across series.
  package static func detect(_ series: HistorySeries, detector: HistoryDetector) -> [HistoryChangePoint] {
    let points = series.points.filter { $0.median.isFinite }
    let medians = points.map(\.median)
    let found = detector.changePoints(medians)
    let bounds = [0] + found.map(\.index) + [medians.count]
    return found.enumerated().map { offset, change in
      let before = Array(medians[bounds[offset]..<change.index])
      let after = Array(medians[change.index..<bounds[offset + 2]])
      let interval = Bootstrap.ratioOfMediansInterval(numerator: after, denominator: before)
      let medianBefore = Statistics.median(before)
      let medianAfter = Statistics.median(after)
      return HistoryChangePoint(
        machine: series.key.machine, hostname: series.key.hostname, camera: series.key.camera,
        cell: series.key.cell, phase: series.key.phase, setup: series.key.setup.description,
        distinction: series.key.distinction, index: change.index,
        benchmark: points[change.index].benchmark, commitBefore: points[change.index - 1].commit,
        commitAfter: points[change.index].commit, time: points[change.index].time, medianBefore: medianBefore,
        medianAfter: medianAfter, shift: medianAfter / medianBefore - 1,
        shiftInterval: [interval.lower - 1, interval.upper - 1], pValue: change.pValue,
        statistic: change.statistic)
    }
  }
}
