import CommandLineKit
import Foundation
import Statistics
import SystemCalls

extension HistoryBenchmarkTool {
  /// `replay FILE`: the windowed detector, as `bench history detect` runs it, on groups of series
  /// detected together (one night's series: Benjamini–Hochberg across the group). FILE is JSON
  /// `{"groups": [[[ms, …], …], …]}`; printed is `{"groups": [[[index, …], …], …]}`, the change
  /// points kept of each series of each group (docs/measurements/2026-12-07-history-detection.md).
  static func replay(_ options: Options, output: inout some TextOutputStream) throws(UsageError) -> Int32 {
    guard let bytes = FileSystem.readFile(atPath: options.file, maxBytes: 1 << 30),
      let input = try? JSONDecoder().decode(ReplayGroups.self, from: Data(bytes))
    else {
      throw UsageError("replay wants a readable JSON file {\"groups\": [[[ms, …], …], …]}: \(options.file)")
    }
    let detector = WindowedChangePoints.Options(
      windowLength: options.window, maxPValue: options.maxPValue, minimumMagnitude: options.minimumMagnitude,
      newestNights: options.newest)
    let answers = PThreadMutex([[[Int]]](repeating: [], count: input.groups.count))
    DispatchQueue.concurrentPerform(iterations: input.groups.count) { g in
      let found = input.groups[g].map { WindowedChangePoints.changePoints($0, options: detector) }
      let kept = FalseDiscovery.benjaminiHochberg(
        found.map { $0.map(\.pValue) }, rate: options.falseDiscoveryRate)
      let indices = zip(found, kept).map { points, keep in zip(points, keep).filter(\.1).map(\.0.index) }
      answers.withLock { $0[g] = indices }
    }
    guard let data = try? JSONSerialization.data(withJSONObject: ["groups": answers.withLock { $0 }])
    else { return 1 }
    output.write(String(decoding: data, as: UTF8.self) + "\n")
    return 0
  }
}

/// `replay`'s input: groups of series.
struct ReplayGroups: Codable {
  /// Each group's series, ms.
  var groups: [[[Double]]]
}
