import BenchAnalysis
import BenchHistory
import Foundation
import ResultsSchema
import TestSupport
import Testing

@Suite(
  .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason))
struct SQLiteHistoryStoreTests {
  @Test("a recorded benchmark reads back with its commit, time, machine, cells, runs and pass/fail")
  func roundTrip() throws {
    let path = HistoryFixtures.databasePath()
    let store = try SQLiteHistoryStore(path: path)
    let results = HistoryFixtures.results([100, 110, nil, 120])
    let benchmark = HistoryBenchmark(results: results, commit: "abc123", branch: "main")
    let outcome = try store.record(benchmark)
    guard case .added(let id) = outcome else {
      Issue.record("expected an added benchmark, got \(outcome)")
      return
    }
    let read = try store.benchmarks(HistoryQuery())
    #expect(read.count == 1)
    let b = try #require(read.first)
    #expect(b.id == id)
    #expect(b.commit == "abc123")
    #expect(b.branch == "main")
    #expect(b.time == "2026-12-01T10:00:00Z")
    #expect(b.machine == HistoryMachine.fingerprint(results.host))
    #expect(b.hostname == "bench-1")
    let cell = try #require(b.cells.first)
    #expect(cell.name == "warm/deferred")
    #expect(cell.runs == 4 && cell.failed == 1)
    #expect(cell.records.map(\.ok) == [true, true, false, true])
    #expect(cell.records.map { $0.phases["first_frame_observed"] } == [100, 110, nil, 120])
    // Every phase of every run is kept, not only the first frame.
    #expect(cell.records[0].phases == results.cells[0].records[0].phases)
    // Counts and errors are kept too (the store's loader leaves them out; read the table).
    let runs = try SQLiteDatabase(path: path).prepare("SELECT counts, error FROM run ORDER BY id")
    #expect(try runs.step())
    #expect(runs.text(0) == SQLiteHistoryStore.countsJSON(results.cells[0].records[0].counts))
    #expect(try runs.step() && runs.step())
    #expect(runs.text(1)?.hasPrefix("timeout after") == true)
  }

  @Test("recording the same results twice adds nothing, even from a copy with a baseline record")
  func idempotent() throws {
    let store = try SQLiteHistoryStore(path: HistoryFixtures.databasePath())
    var results = HistoryFixtures.results([100, 110, 120])
    let first = try store.record(HistoryBenchmark(results: results, commit: "abc"))
    results.baseline = BenchResults.BaselineInfo(
      savedAt: "2026-12-02T00:00:00Z", source: "x.json", toolVersion: "0.3.0", camera: "synthetic",
      profileName: nil)
    let second = try store.record(HistoryBenchmark(results: results, commit: "def"))
    guard case .added(let id) = first else {
      Issue.record("the first record added nothing")
      return
    }
    #expect(second == .alreadyRecorded(id: id, commit: "abc"))
    #expect(try store.benchmarks(HistoryQuery()).count == 1)
    // Other results are another benchmark.
    _ = try store.record(HistoryBenchmark(results: HistoryFixtures.results([101, 110, 120]), commit: "abc"))
    #expect(try store.benchmarks(HistoryQuery()).count == 2)
  }

  @Test("a new database is at the newest schema version, in WAL mode, and reopening keeps it")
  func schemaVersion() throws {
    let path = HistoryFixtures.databasePath()
    let store = try SQLiteHistoryStore(path: path)
    #expect(store.schemaVersion == 1)
    let again = try SQLiteHistoryStore(path: path)
    #expect(again.schemaVersion == 1)
    let db = try SQLiteDatabase(path: path)
    let mode = try db.prepare("PRAGMA journal_mode")
    #expect(try mode.step())
    #expect(mode.text(0) == "wal")
    let versions = try db.prepare("SELECT count(*), max(version) FROM schema_version")
    #expect(try versions.step())
    #expect(versions.integer(0) == 1 && versions.integer(1) == 1)
  }

  @Test("a database from a newer bench is refused, not written to")
  func newerSchemaRefused() throws {
    let path = HistoryFixtures.databasePath()
    _ = try SQLiteHistoryStore(path: path)
    try SQLiteDatabase(path: path).execute("INSERT INTO schema_version VALUES (99, '2030-01-01T00:00:00Z')")
    #expect {
      _ = try SQLiteHistoryStore(path: path)
    } throws: { ($0 as? HistoryError)?.code == .schemaTooNew }
  }

  @Test("filters select by machine (fingerprint prefix or host name), cell, phase and time")
  func filters() throws {
    let store = try SQLiteHistoryStore(path: HistoryFixtures.databasePath())
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
    let phased = try store.benchmarks(HistoryQuery(phase: "first_frame_observed"))
    #expect(
      phased.flatMap { $0.cells.flatMap { $0.records.map { Array($0.phases.keys) } } }.allSatisfy {
        $0 == ["first_frame_observed"]
      })
  }

  @Test("two machines are two series, never one")
  func machinesApart() throws {
    let store = try SQLiteHistoryStore(path: HistoryFixtures.databasePath())
    for (i, host) in ["a", "b", "a"].enumerated() {
      let r = HistoryFixtures.results(
        [100 + Double(i), 110], startedAt: "2026-12-0\(i + 1)T10:00:00Z", hostname: host, machineId: host)
      _ = try store.record(HistoryBenchmark(results: r, commit: "c\(i)"))
    }
    let series = HistorySeries.build(try store.benchmarks(HistoryQuery(phase: "first_frame_observed")))
    #expect(series.map(\.key.hostname) == ["a", "b"])
    #expect(series.map { $0.points.map(\.commit) } == [["c0", "c2"], ["c1"]])
  }
}

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SQLiteLibraryTests {
  @Test("a library that cannot be loaded is one clear error naming it and the package")
  func missingLibrary() {
    #expect {
      try SQLiteLibrary.load(path: "libsqlite3-firstframe-missing.so.0")
    } throws: { error in
      guard let e = error as? HistoryError else { return false }
      return e.code == .libraryMissing && e.description.contains("libsqlite3-firstframe-missing.so.0")
        && e.description.contains("libsqlite3-0") && !e.description.contains("\n")
    }
  }
}
