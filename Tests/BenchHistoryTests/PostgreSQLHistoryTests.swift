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

  @Test(
    "no form of password is printed: URI user info, ?password=, keyword password=, quoted, percent-encoded, and libpq's own messages that echo the string",
    arguments: [
      "postgresql://u@127.0.0.1:9/d?password=HUNTER2",
      "postgresql://u@127.0.0.1:9/d?connect_timeout=5&password=HUNTER2&sslmode=disable",
      "postgresql://u@127.0.0.1:9/d?pass%77ord=HUNTER2",
      "postgresql://u@127.0.0.1:9/d?sslpassword=HUNTER2",
      "postgresql://u:HUNTER2@127.0.0.1:9/d",
      "postgres://u:HUN%54ER2@127.0.0.1:9/d",
      "postgresql://u:HUNTER2@[::1:9/d",
      "host=127.0.0.1 port=9 dbname=d user=u password=HUNTER2",
      "host=127.0.0.1 port=9 dbname=d user=u password = 'HUNTER2 and more'",
      "password=HUNTER2 host=127.0.0.1 port=9 dbname=d user=u",
      "host=127.0.0.1 port=HUNTER2x password=HUNTER2 dbname=d",
    ])
  func everyPasswordHidden(conninfo: String) throws {
    let folder = temporaryFolder("history")
    let path = try HistoryFixtures.write(
      HistoryFixtures.results([100, 101, 102]), named: "r.json", in: folder)
    for arguments in [["show"], ["detect"], ["record", path, "--commit", "c1"]] {
      let (status, output, errors) = HistoryFixtures.run(arguments + ["--db", conninfo])
      #expect(status == 2, "\(arguments): \(errors)")
      #expect(errors.filter { $0 == "\n" }.count == 1, "\(errors)")
      for secret in ["HUNTER2", "HUN%54ER2", "and more"] {
        #expect(!errors.contains(secret) && !output.contains(secret), "\(arguments): \(errors)")
      }
      #expect(errors.contains("***"), "\(errors)")
    }
  }

  @Test("a libpq keyword string is a PostgreSQL server: record, show and detect on it, and no file made")
  func keywordString() throws {
    let url = try PostgreSQLServer.shared().makeDatabase()
    let components = try #require(URLComponents(string: url))
    let name = String(components.path.dropFirst())
    let socket = try #require(components.queryItems?.first { $0.name == "host" }?.value)
    let conninfo = "host=\(socket) dbname=\(name) user=\(PostgreSQLServer.user)"
    let folder = temporaryFolder("history")
    let path = try HistoryFixtures.write(
      HistoryFixtures.results([100, 101, 102]), named: "r.json", in: folder)
    let recorded = HistoryFixtures.run(["record", path, "--commit", "c1", "--db", conninfo])
    #expect(recorded.status == 0, "\(recorded.errors)")
    let shown = HistoryFixtures.run(["show", "--db", conninfo])
    #expect(shown.status == 0 && shown.output.contains("c1"), "\(shown.errors)")
    #expect(shown.output == HistoryFixtures.run(["show", "--db", url]).output)
    #expect(
      !FileManager.default.fileExists(atPath: "host=\(socket) dbname=\(name) user=\(PostgreSQLServer.user)"))
    // Against no server: one line naming the connection, exit status 2, no file.
    let missing = "host=\(folder)/nowhere dbname=d user=u"
    let refused = HistoryFixtures.run(["record", path, "--commit", "c1", "--db", missing])
    #expect(refused.status == 2 && refused.errors.contains("cannot connect"), "\(refused.errors)")
    #expect(refused.errors.filter { $0 == "\n" }.count == 1)
    #expect(!FileManager.default.fileExists(atPath: missing))
    #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == ["r.json"])
  }

  @Test(
    "a recorder role with only SELECT, INSERT and USAGE records into a schema already at the current version; a new database it cannot create"
  )
  func recorderWithoutCreate() throws {
    let server = try PostgreSQLServer.shared()
    let url = try server.makeDatabase()
    _ = try PostgreSQLHistoryStore(url: url)  // the owner makes the schema
    let role = "recorder_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12)
    let owner = try PQConnection(url: url)
    try owner.execute(
      """
      CREATE ROLE \(role) LOGIN; REVOKE CREATE ON SCHEMA public FROM PUBLIC;
      GRANT USAGE ON SCHEMA public TO \(role);
      GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO \(role);
      GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO \(role)
      """)
    let asRecorder = url.replacingOccurrences(of: "user=\(PostgreSQLServer.user)", with: "user=\(role)")
    let folder = temporaryFolder("history")
    for (i, frames) in [[100.0, 101, 102], [110.0, 111, 112]].enumerated() {
      let path = try HistoryFixtures.write(
        HistoryFixtures.results(frames, startedAt: "2026-12-0\(i + 1)T10:00:00Z"), named: "r\(i).json",
        in: folder)
      let recorded = HistoryFixtures.run(["record", path, "--commit", "c\(i)", "--db", asRecorder])
      #expect(recorded.status == 0, "\(recorded.errors)")
    }
    let shown = HistoryFixtures.run(["show", "--db", asRecorder])
    #expect(
      shown.status == 0 && shown.output.contains("c0") && shown.output.contains("c1"), "\(shown.errors)")
    // Where the schema must be made, the recorder cannot: the server's refusal, one line.
    let fresh = try server.makeDatabase()
    try PQConnection(url: fresh).execute(
      "REVOKE CREATE ON SCHEMA public FROM PUBLIC; GRANT USAGE ON SCHEMA public TO \(role)")
    let refused = HistoryFixtures.run([
      "record", folder + "/r0.json", "--commit", "c0", "--db",
      fresh.replacingOccurrences(of: "user=\(PostgreSQLServer.user)", with: "user=\(role)"),
    ])
    #expect(refused.status == 1 && refused.errors.contains("42501"), "\(refused.errors)")
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
