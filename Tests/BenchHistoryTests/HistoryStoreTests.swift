import BenchHistory
import Foundation
import HistoryAnalysis
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// The history stores, each test against both back ends: an SQLite file and a real PostgreSQL
/// server (``HistoryBackend``). `.blocking`: the PostgreSQL cases start a server.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10))))
struct HistoryStoreTests {
  @Test(
    "a recorded benchmark reads back with its commit, time, machine, cells, runs and pass/fail",
    arguments: HistoryBackend.allCases)
  func roundTrip(_ backend: HistoryBackend) throws {
    let url = try backend.makeDatabase()
    let store = try HistoryBackend.open(url)
    let results = HistoryFixtures.results([100, 110, nil, 120])
    let benchmark = HistoryBenchmark(results: results, commit: "abc123", branch: "main")
    let outcome = try store.record(benchmark)
    #expect(outcome == .added(id: 1))
    let read = try store.benchmarks(HistoryQuery())
    #expect(read.count == 1)
    let b = try #require(read.first)
    #expect(b.id == 1)
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
    let runs = try HistoryBackend.rows("SELECT counts, error FROM run ORDER BY id", columns: 2, in: url)
    #expect(runs.count == 4)
    #expect(runs.first?[0] == SQLiteHistoryStore.countsJSON(results.cells[0].records[0].counts))
    #expect(runs[2][1]?.hasPrefix("timeout after") == true)
  }

  @Test(
    "recording the same results twice adds nothing, even from a copy with a baseline record",
    arguments: HistoryBackend.allCases)
  func idempotent(_ backend: HistoryBackend) throws {
    let store = try HistoryBackend.open(try backend.makeDatabase())
    var results = HistoryFixtures.results([100, 110, 120])
    let first = try store.record(HistoryBenchmark(results: results, commit: "abc"))
    results.baseline = BenchResults.BaselineInfo(
      savedAt: "2026-12-02T00:00:00Z", source: "x.json", toolVersion: "0.3.0", camera: "synthetic",
      profileName: nil)
    let second = try store.record(HistoryBenchmark(results: results, commit: "def"))
    #expect(first == .added(id: 1))
    #expect(second == .alreadyRecorded(id: 1, commit: "abc"))
    #expect(try store.benchmarks(HistoryQuery()).count == 1)
    // Other results are another benchmark, with the next id on both back ends.
    let third = try store.record(
      HistoryBenchmark(results: HistoryFixtures.results([101, 110, 120]), commit: "abc"))
    #expect(third == .added(id: 2))
    #expect(try store.benchmarks(HistoryQuery()).count == 2)
  }

  @Test(
    "a new database is at the newest schema version, and reopening keeps it",
    arguments: HistoryBackend.allCases)
  func schemaVersion(_ backend: HistoryBackend) throws {
    let url = try backend.makeDatabase()
    #expect(try HistoryBackend.open(url).schemaVersion == 2)
    #expect(try HistoryBackend.open(url).schemaVersion == 2)
    let versions = try HistoryBackend.rows(
      "SELECT count(*), max(version) FROM schema_version", columns: 2, in: url)
    #expect(versions == [["2", "2"]])
    if case .sqlite(let path) = url {
      #expect(
        try HistoryBackend.rows("PRAGMA journal_mode", columns: 1, in: .sqlite(path: path)) == [["wal"]])
    }
  }

  @Test(
    "a version 1 database, with a benchmark in it, migrates to the current version and keeps it",
    arguments: HistoryBackend.allCases)
  func migratesForward(_ backend: HistoryBackend) throws {
    let url = try backend.makeDatabase()
    let old = try HistoryBackend.open(url, migratingTo: 1)
    #expect(old.schemaVersion == 1)
    #expect(
      try old.record(HistoryBenchmark(results: HistoryFixtures.results([100, 101]), commit: "v1"))
        == .added(id: 1))
    #expect(try Self.hasCommitIndex(url) == false)
    let current = try HistoryBackend.open(url)
    #expect(current.schemaVersion == 2)
    #expect(try Self.hasCommitIndex(url))
    #expect(try current.benchmarks(HistoryQuery()).map(\.commit) == ["v1"])
    let versions = try HistoryBackend.rows(
      "SELECT version FROM schema_version ORDER BY version", columns: 1, in: url)
    #expect(versions == [["1"], ["2"]])
  }

  /// Whether version 2's index on the benchmarks' commits is there.
  static func hasCommitIndex(_ url: HistoryDatabaseURL) throws -> Bool {
    let sql =
      if case .sqlite = url {
        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'benchmark_commit'"
      } else {
        "SELECT count(*) FROM pg_indexes WHERE indexname = 'benchmark_commit'"
      }
    return try HistoryBackend.rows(sql, columns: 1, in: url) == [["1"]]
  }

  @Test("a database from a newer bench is refused, not written to", arguments: HistoryBackend.allCases)
  func newerSchemaRefused(_ backend: HistoryBackend) throws {
    let url = try backend.makeDatabase()
    _ = try HistoryBackend.open(url)
    _ = try HistoryBackend.rows(
      "INSERT INTO schema_version VALUES (99, '2030-01-01T00:00:00Z')", columns: 0, in: url)
    #expect {
      _ = try HistoryBackend.open(url)
    } throws: { ($0 as? HistoryError)?.code == .schemaTooNew }
    #expect(try HistoryBackend.rows("SELECT count(*) FROM schema_version", columns: 1, in: url) == [["3"]])
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
