import Foundation
import Sampling
import Statistics
import SystemCalls

/// How well `detect` finds change points in series with a machine's own noise (issue 26's
/// accuracy benchmark, `Benchmarks/history-accuracy`): synthetic benchmark series whose every
/// point is the median of `runsPerPoint` runs drawn with replacement from a real cell's runs
/// (its spread, skew and outliers, not a model of them), flat ones for false change points and
/// ones with a step for the found rate and the location error.
package struct HistoryDetectionAccuracy: Sendable {
  /// The noise: one cell's ok runs of one phase, ms (say, warm/deferred `first_frame_observed`).
  package var runs: [Double]
  /// Runs per benchmark (a point is their median).
  package var runsPerPoint: Int
  /// The deviations of the runs from their median are multiplied by this (1: the measured noise).
  package var noiseScale = 1.0
  /// Flat series, and their length.
  package var flatSeries = 100
  /// Points per flat series.
  package var flatLength = 60
  /// Series with one step, and their length.
  package var stepSeries = 100
  /// Points per stepped series.
  package var stepLength = 30
  /// The step: after/before − 1 (0.05: 5 % slower).
  package var step = 0.05
  /// The step's position (the first point after it) is drawn uniformly from this range.
  package var stepPositions = 5...25
  /// The first seed; series i draws from `seed + i`.
  package var seed: UInt64 = 2026_12_03

  /// What the simulation found.
  package struct Outcome: Sendable, Hashable {
    /// Flat series with at least one change point.
    package var flatWithChange = 0
    /// Change points found in all flat series.
    package var falseChangePoints = 0
    /// Stepped series in which a change point lies within ±1 of the step.
    package var found = 0
    /// Per stepped series, the nearest change point's distance from the step (signed, points;
    /// nil when none was found).
    package var locationErrors: [Int?] = []
    /// Change points in stepped series other than the one nearest the step.
    package var extraChangePoints = 0
    /// The relative spread of the points (standard deviation of a flat series' points over
    /// their mean, averaged over the flat series).
    package var pointSpread = 0.0
  }

  /// Creates a simulation over `runs` (at least one).
  package init(runs: [Double], runsPerPoint: Int) {
    self.runs = runs
    self.runsPerPoint = max(1, runsPerPoint)
  }

  /// One point: the median of `runsPerPoint` runs drawn with replacement, times `level`.
  func point(level: Double, center: Double, _ rng: inout SplitMix64) -> Double {
    var drawn = (0..<runsPerPoint).map { _ in
      let r = runs[rng.nextIndex(below: runs.count)]
      return center + (r - center) * noiseScale
    }
    drawn.sort()
    let mid = drawn.count / 2
    let median = drawn.count % 2 == 1 ? drawn[mid] : (drawn[mid - 1] + drawn[mid]) / 2
    return median * level
  }

  /// Runs `detect`'s E-divisive with `options` on every series (spread over the cores; the
  /// answer does not depend on how many).
  package func measure(options: EDivisive.Options) -> Outcome {
    let center = Statistics.median(runs)
    let results = PThreadMutex(
      [(changes: [Int], stepAt: Int?, spread: Double)](
        repeating: ([], nil, 0), count: flatSeries + stepSeries))
    DispatchQueue.concurrentPerform(iterations: flatSeries + stepSeries) { i in
      var rng = SplitMix64(seed: seed &+ UInt64(i))
      let isStep = i >= flatSeries
      let length = isStep ? stepLength : flatLength
      let at = isStep ? stepPositions.lowerBound + rng.nextIndex(below: stepPositions.count) : length
      let series = (0..<length).map { k in point(level: k < at ? 1 : 1 + step, center: center, &rng) }
      let changes = EDivisive.changePoints(series, options: options).map(\.index)
      let mean = series.reduce(0, +) / Double(length)
      let sd = (series.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(max(1, length - 1)))
        .squareRoot()
      results.withLock { $0[i] = (changes, isStep ? at : nil, sd / mean) }
    }
    var outcome = Outcome()
    for r in results.withLock({ $0 }) {
      guard let at = r.stepAt else {
        outcome.flatWithChange += r.changes.isEmpty ? 0 : 1
        outcome.falseChangePoints += r.changes.count
        outcome.pointSpread += r.spread / Double(flatSeries)
        continue
      }
      let nearest = r.changes.min { abs($0 - at) < abs($1 - at) }
      let error = nearest.map { $0 - at }
      outcome.locationErrors.append(error)
      if let error, abs(error) <= 1 { outcome.found += 1 }
      outcome.extraChangePoints += max(0, r.changes.count - 1)
    }
    return outcome
  }
}
