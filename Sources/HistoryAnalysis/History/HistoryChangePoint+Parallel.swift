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
    let found = PThreadMutex([[HistoryChangePoint]](repeating: [], count: series.count))
    DispatchQueue.concurrentPerform(iterations: series.count) { i in
      let points = detect(series[i], options: options)
      found.withLock { $0[i] = points }
    }
    return found.withLock { $0 }
  }
}
