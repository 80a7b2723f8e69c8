import BenchCommands
import BenchHistory
import Foundation
import ResultsSchema
import TestSupport
import TestThreads
import Testing

/// `bench history` on a PostgreSQL server, through the command line, and libpq's absence.
@Suite(
  .blocking, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: PostgreSQLServer.available && PQLibrary.isAvailable, PostgreSQLServer.skipReason))
struct PostgreSQLHistoryCommandTests {
  @Test("record, show and detect with --db postgresql://…: the same lines as with an SQLite file")
  func commandLine() throws {
    let postgresql = try PostgreSQLServer.shared().makeDatabase()
    let folder = temporaryFolder("history")
    let sqlite = "sqlite:" + folder + "/h.sqlite"
    for (i, frames) in [[100.0, 102, 104], [101.0, 103, 105], [150.0, 152, 154]].enumerated() {
      let path = try HistoryFixtures.write(
        HistoryFixtures.results(frames, startedAt: "2026-12-0\(i + 1)T10:00:00Z"), named: "r\(i).json",
        in: folder)
      let recorded = HistoryFixtures.run(["record", path, "--commit", "commit\(i)", "--db", postgresql])
      #expect(recorded.status == 0, "\(recorded.errors)")
      #expect(recorded.output.hasPrefix("recorded \(path): benchmark \(i + 1), commit commit\(i)"))
      #expect(HistoryFixtures.run(["record", path, "--commit", "commit\(i)", "--db", sqlite]).status == 0)
    }
    let again = HistoryFixtures.run(["record", folder + "/r0.json", "--commit", "x", "--db", postgresql])
    #expect(
      again.output.contains("already recorded") && again.output.contains("commit commit0; nothing added"))
    for arguments in [["show"], ["show", "--format", "csv"], ["show", "--format", "json"], ["detect"]] {
      let fromPostgreSQL = HistoryFixtures.run(arguments + ["--db", postgresql])
      #expect(fromPostgreSQL.status == 0, "\(fromPostgreSQL.errors)")
      #expect(
        fromPostgreSQL.output == HistoryFixtures.run(arguments + ["--db", sqlite]).output, "\(arguments)")
    }
  }

  @Test("show on a PostgreSQL database with no history says how to make one, exit status 2")
  func emptyDatabase() throws {
    let url = try PostgreSQLServer.shared().makeDatabase()
    let (status, _, errors) = HistoryFixtures.run(["show", "--db", url])
    #expect(status == 2)
    #expect(
      errors.contains("no history in postgresql:///") && errors.contains("bench history record"), "\(errors)")
    #expect(errors.filter { $0 == "\n" }.count == 1)
  }

  @Test("a password in the URL is never printed")
  func passwordHidden() {
    let url = "postgresql://bench:s3cret@/none?host=/nonexistent"
    let (status, _, errors) = HistoryFixtures.run(["show", "--db", url])
    #expect(status == 2)
    #expect(!errors.contains("s3cret") && errors.contains("postgresql://bench:***@/none"), "\(errors)")
  }
}

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct PQLibraryTests {
  @Test("a libpq that cannot be loaded is one clear error naming it and the package")
  func missingLibrary() {
    #expect {
      try PQLibrary.load(path: "libpq-firstframe-missing.so.5")
    } throws: { error in
      guard let e = error as? HistoryError else { return false }
      return e.code == .libraryMissing && e.description.contains("libpq-firstframe-missing.so.5")
        && e.description.contains("libpq5") && !e.description.contains("\n")
    }
  }
}
