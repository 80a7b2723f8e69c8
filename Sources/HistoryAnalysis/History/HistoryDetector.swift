import Statistics

/// Which change-point method `bench history detect` runs, with its options.
package enum HistoryDetector: Sendable, Hashable {
  /// Windowed E-divisive with a t-test merge (`WindowedChangePoints`), then Benjamini–Hochberg
  /// across every series detected together at `falseDiscoveryRate`: the default.
  case windowed(WindowedChangePoints.Options, falseDiscoveryRate: Double)
  /// E-divisive over the whole series with a permutation test (`EDivisive`), each series alone.
  case edivisive(EDivisive.Options)

  /// The default: windows of 10, p ≤ 0.001, a move of at least 2 %, the newest night tested on its
  /// own, false discovery rate 0.01 across series.
  package static let history = HistoryDetector.windowed(.history, falseDiscoveryRate: 0.01)

  /// The change points of `medians` (index, t or E-divisive statistic, p), in index order.
  package func changePoints(_ medians: [Double]) -> [(index: Int, statistic: Double, pValue: Double)] {
    switch self {
    case .windowed(let options, _):
      return WindowedChangePoints.changePoints(medians, options: options).map {
        ($0.index, $0.statistic, $0.pValue)
      }
    case .edivisive(let options):
      return EDivisive.changePoints(medians, options: options).sorted { $0.index < $1.index }
        .map { ($0.index, $0.statistic, $0.pValue) }
    }
  }
}

extension HistoryChangePoint {
  /// Benjamini–Hochberg across series (`FalseDiscovery.benjaminiHochberg`): `found` holds each
  /// series' change points, and those kept are the ones significant at false discovery rate
  /// `rate` among all of them. When no series changed, the chance that any is flagged is at most
  /// `rate` (a night of ~100 series at 0.01: at most one false alarm per 100 nights).
  package static func controlFalseDiscoveries(_ found: [[HistoryChangePoint]], rate: Double)
    -> [[HistoryChangePoint]]
  {
    let kept = FalseDiscovery.benjaminiHochberg(found.map { $0.map(\.pValue) }, rate: rate)
    return zip(found, kept).map { points, keep in zip(points, keep).filter(\.1).map(\.0) }
  }
}
