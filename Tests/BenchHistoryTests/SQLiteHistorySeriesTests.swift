import BenchHistory
import Foundation
import HistoryAnalysis
import Sampling
import TestSupport
import Testing

/// The SQLite store's streaming series (`series(_:)`, what `show` and `detect` read) are the
/// series of its benchmarks (`HistorySeries.build(benchmarks(_:))`), for every filter.
@Suite(
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct SQLiteHistorySeriesTests {
  /// Benchmarks on two machines, two cells, with failed runs, a cell all of whose runs failed,
  /// and a phase only some runs have.
  static func store() throws -> SQLiteHistoryStore {
    let store = try SQLiteHistoryStore(path: HistoryFixtures.databasePath())
    var rng = SplitMix64(seed: 5)
    for b in 0..<12 {
      let cells = ["deferred", "eager"].enumerated().map { (c, config) in
        let allFailed = b == 4 && c == 1
        return HistoryCell(
          condition: b % 3 == 0 ? "cold" : "warm", config: config, camera: "synthetic", runs: 5,
          failed: allFailed ? 5 : b % 2,
          records: (1...5).map { run in
            var phases = [
              "first_frame_observed": 300 + 10 * rng.nextUnit(), "process_launch": 20 + rng.nextUnit(),
            ]
            if run % 2 == 0 { phases["device_open"] = 5 + rng.nextUnit() }
            let ok = !allFailed && !(run == 1 && b % 2 == 1)
            return HistoryRun(run: run, ok: ok, error: ok ? nil : "no frame", phases: ok ? phases : [:])
          })
      }
      let benchmark = HistoryBenchmark(
        contentHash: "series-test:\(b)", commit: String(repeating: "\(b % 10)", count: 40), branch: "main",
        time: "2026-12-\(String(format: "%02d", 12 - b % 12))T10:00:00Z",
        machine: b % 4 == 0 ? "fnv1a64:00000000000000bb" : "fnv1a64:00000000000000aa",
        hostname: b % 4 == 0 ? "bench-2" : "bench-1", toolVersion: "0", settings: "{}", cells: cells)
      _ = try store.record(benchmark)
    }
    return store
  }

  @Test(
    "the store's series equal the series of its benchmarks",
    arguments: [
      HistoryQuery(), HistoryQuery(phase: "first_frame_observed"), HistoryQuery(phase: "device_open"),
      HistoryQuery(machine: "bench-2"), HistoryQuery(condition: "warm", config: "eager"),
      HistoryQuery(since: "2026-12-05T00:00:00Z"), HistoryQuery(phase: "no_such_phase"),
    ])
  func sameSeries(_ query: HistoryQuery) throws {
    let store = try Self.store()
    let streamed = try store.series(query)
    let built = HistorySeries.build(try store.benchmarks(query))
    #expect(streamed.map(\.key) == built.map(\.key))
    for (a, b) in zip(streamed, built) {
      #expect(a.points.count == b.points.count, "\(a.key)")
      for (p, q) in zip(a.points, b.points) {
        #expect(
          p.benchmark == q.benchmark && p.commit == q.commit && p.time == q.time && p.branch == q.branch)
        #expect(p.samples == q.samples && p.runs == q.runs && p.failed == q.failed)
        #expect(p.median == q.median || (p.median.isNaN && q.median.isNaN), "\(a.key) \(p.benchmark)")
      }
    }
    #expect(query.phase == "no_such_phase" ? streamed.isEmpty : !streamed.isEmpty)
  }
}
