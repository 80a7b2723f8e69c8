import BenchHistory
import Foundation
import HistoryAnalysis
import ResultsSchema
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// What the stores give back — the same on both back ends — and many recorders at once.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10))))
struct HistoryStoreQueryTests {
  @Test(
    "filters select by machine (fingerprint prefix or host name), cell, phase and time",
    arguments: HistoryBackend.allCases)
  func filters(_ backend: HistoryBackend) throws {
    let store = try HistoryBackend.open(try backend.makeDatabase())
    let a = HistoryFixtures.results(
      [100, 101], startedAt: "2026-12-01T10:00:00Z", hostname: "a", machineId: "aa")
    let b = HistoryFixtures.results(
      [200, 201], startedAt: "2026-12-02T10:00:00Z", hostname: "b", machineId: "bb")
    _ = try store.record(HistoryBenchmark(results: a, commit: "c1"))
    _ = try store.record(HistoryBenchmark(results: b, commit: "c2"))
    #expect(try store.benchmarks(HistoryQuery(machine: "a")).map(\.commit) == ["c1"])
    let prefix = String(HistoryMachine.fingerprint(b.host).prefix(12))
    #expect(try store.benchmarks(HistoryQuery(machine: prefix)).map(\.commit) == ["c2"])
    let short = HistoryReport.short(HistoryMachine.fingerprint(b.host))
    #expect(short.count == 8 && !short.hasPrefix("fnv"))
    #expect(try store.benchmarks(HistoryQuery(machine: short)).map(\.commit) == ["c2"])
    #expect(try store.benchmarks(HistoryQuery(since: "2026-12-02T00:00:00Z")).map(\.commit) == ["c2"])
    #expect(try store.benchmarks(HistoryQuery(condition: "cold")).isEmpty)
    #expect(try store.benchmarks(HistoryQuery(condition: "warm", config: "deferred")).count == 2)
    let phased = try store.benchmarks(HistoryQuery(phase: "first_frame_observed"))
    #expect(
      phased.flatMap { $0.cells.flatMap { $0.records.map { Array($0.phases.keys) } } }.allSatisfy {
        $0 == ["first_frame_observed"]
      })
    // A phase filter and a machine filter together (their parameters are numbered apart).
    #expect(
      try store.benchmarks(HistoryQuery(machine: "b", phase: "first_frame_observed")).map(\.commit) == ["c2"])
  }

  @Test(
    "bisect's probes stay out of the series unless asked for; --branch selects one branch",
    arguments: HistoryBackend.allCases)
  func branches(_ backend: HistoryBackend) throws {
    let store = try HistoryBackend.open(try backend.makeDatabase())
    for (i, branch) in ["main", "bisect", "main", "topic"].enumerated() {
      let r = HistoryFixtures.results(
        [100 + Double(i), 110], startedAt: "2026-12-0\(i + 1)T10:00:00Z", hostname: "a", machineId: "a")
      _ = try store.record(HistoryBenchmark(results: r, commit: "c\(i)", branch: branch))
    }
    #expect(try store.benchmarks(HistoryQuery()).map(\.commit) == ["c0", "c2", "c3"])
    #expect(try store.benchmarks(HistoryQuery(branch: "main")).map(\.commit) == ["c0", "c2"])
    #expect(try store.benchmarks(HistoryQuery(branch: "bisect")).map(\.commit) == ["c1"])
    let series = try store.series(HistoryQuery(phase: "first_frame_observed"))
    #expect(series.map { $0.points.map(\.commit) } == [["c0", "c2", "c3"]])
    let probes = try store.series(
      HistoryQuery(phase: "first_frame_observed", branch: HistoryQuery.bisectBranch))
    #expect(probes.map { $0.points.map(\.commit) } == [["c1"]])
  }

  @Test("two machines are two series, never one", arguments: HistoryBackend.allCases)
  func machinesApart(_ backend: HistoryBackend) throws {
    let store = try HistoryBackend.open(try backend.makeDatabase())
    for (i, host) in ["a", "b", "a"].enumerated() {
      let r = HistoryFixtures.results(
        [100 + Double(i), 110], startedAt: "2026-12-0\(i + 1)T10:00:00Z", hostname: host, machineId: host)
      _ = try store.record(HistoryBenchmark(results: r, commit: "c\(i)"))
    }
    let series = HistorySeries.build(try store.benchmarks(HistoryQuery(phase: "first_frame_observed")))
    #expect(series.map(\.key.hostname) == ["a", "b"])
    #expect(series.map { $0.points.map(\.commit) } == [["c0", "c2"], ["c1"]])
  }

  @Test("both back ends give the same benchmarks, to the last phase, for the same records")
  func sameAnswers() throws {
    let sqlite = try HistoryBackend.open(try HistoryBackend.sqlite.makeDatabase())
    let postgresql = try HistoryBackend.open(try HistoryBackend.postgresql.makeDatabase())
    var outcomes: [[HistoryRecordOutcome]] = [[], []]
    for (i, frames) in [[100.0, 101.25, nil], [99.5, 1e-5, 123_456.789], [100.0, 101.25, nil]].enumerated() {
      // The third is the first again: already recorded on both.
      let r = HistoryFixtures.results(
        frames, startedAt: "2026-12-0\(i == 2 ? 1 : i + 1)T10:00:00Z", seed: UInt64(i == 2 ? 0 : i))
      let benchmark = HistoryBenchmark(results: r, commit: "c\(i)", branch: "b\"'\\,{x}")
      for (s, store) in [sqlite, postgresql].enumerated() { outcomes[s].append(try store.record(benchmark)) }
    }
    #expect(outcomes[0] == outcomes[1])
    for query in [
      HistoryQuery(), HistoryQuery(phase: "first_frame_observed"), HistoryQuery(machine: "bench-1"),
    ] {
      let fromSQLite = try sqlite.benchmarks(query)
      #expect(!fromSQLite.isEmpty)
      #expect(try postgresql.benchmarks(query) == fromSQLite)
    }
  }

  @Test(
    "six recorders at once, each on its own connection, into one database: every benchmark is there once",
    arguments: HistoryBackend.allCases)
  func concurrentRecorders(_ backend: HistoryBackend) throws {
    let url = try backend.makeDatabase()
    _ = try HistoryBackend.open(url)
    let recorders = 6
    let each = 4
    let failures = PThreadMutex<[String]>([])
    let threads = (0..<recorders).map { recorder in
      Thread {
        do {
          let store = try HistoryBackend.open(url)
          // Each records its own benchmarks, and every recorder the same shared one.
          for i in 0..<each {
            let r = HistoryFixtures.results(
              [100 + Double(recorder), 110 + Double(i)], startedAt: "2026-12-01T10:0\(i):00Z",
              hostname: "m\(recorder)", machineId: "m\(recorder)")
            _ = try store.record(HistoryBenchmark(results: r, commit: "r\(recorder)-\(i)"))
          }
          _ = try store.record(
            HistoryBenchmark(results: HistoryFixtures.results([1, 2, 3]), commit: "shared"))
        } catch {
          failures.withLock { $0.append("recorder \(recorder): \(error)") }
        }
      }
    }
    for thread in threads { thread.start() }
    // Waited for with a deadline: no sleep.
    #expect(blockUntil(timeout: .seconds(300), every: .milliseconds(20)) { threads.allSatisfy(\.isFinished) })
    #expect(failures.withLock { $0 } == [])
    let store = try HistoryBackend.open(url)
    let all = try store.benchmarks(HistoryQuery())
    #expect(all.count == recorders * each + 1)
    #expect(Set(all.map(\.id)).count == all.count)
    #expect(all.filter { $0.commit == "shared" }.count == 1)
    #expect(all.allSatisfy { $0.cells.count == 1 && $0.cells[0].records.count == $0.cells[0].runs })
    let phases = try HistoryBackend.rows("SELECT count(*) FROM run", columns: 1, in: url)
    #expect(phases == [[String(all.reduce(0) { $0 + $1.cells[0].records.count })]])
  }
}
