import Foundation
import Statistics
import SystemCalls

extension HistoryChangePoint {
  /// The change points of each series in `series` (one list per series, in their order): `detect`
  /// on each, the series
  /// spread over the machine's cores (`DispatchQueue.concurrentPerform`). Each series is seeded
  /// alike, so the answer is the same as one `detect` after another, on any number of cores.
  package static func detectEach(_ series: [HistorySeries], options: EDivisive.Options)
    -> [[HistoryChangePoint]]
  {
    detectEach(series, detector: .edivisive(options))
  }

  /// The change points `detector` finds in each series (one list per series, in their order),
  /// spread over the cores; the windowed detector's are then controlled across all of them
  /// (`controlFalseDiscoveries`), so a series' change points depend on the others detected with it.
  package static func detectEach(_ series: [HistorySeries], detector: HistoryDetector)
    -> [[HistoryChangePoint]]
  {
    let found = PThreadMutex([[HistoryChangePoint]](repeating: [], count: series.count))
    DispatchQueue.concurrentPerform(iterations: series.count) { i in
      let points = detect(series[i], detector: detector)
      found.withLock { $0[i] = points }
    }
    let each = found.withLock { $0 }
    if case .windowed(_, let rate) = detector { return controlFalseDiscoveries(each, rate: rate) }
    return each
  }
}
