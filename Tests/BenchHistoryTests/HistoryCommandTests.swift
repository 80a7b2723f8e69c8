import BenchCommands
import BenchHistory
import Foundation
import ResultsSchema
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct HistoryCommandLineTests {
  @Test(
    "bad command lines are one line and exit status 2",
    arguments: [
      ([], "wants an action"),
      (["forget"], "wants an action"),
      (["record"], "wants one or more results files"),
      (["show", "x.json"], "takes no arguments"),
      (["record", "r.json", "--svg", "out"], "--svg is not an option of bench history record"),
      (["show", "--commit", "abc"], "--commit is not an option of bench history show"),
      (["show", "--cell", "warm"], "--cell wants CONDITION/CONFIG"),
      (["record", "r.json", "--time", "yesterday"], "--time wants ISO 8601"),
      (["show", "--db", "mysql://host/db"], "unknown scheme mysql"),
      (["show", "--db", "postgresql:///none?host=/nonexistent"], "cannot connect to the history database"),
      (["record", "r.json", "--db", "dbnme=d password=HUNTER2"], "dbnme is not a libpq connection keyword"),
      (["show", "--db", "mysql://u:HUNTER2@host/db"], "mysql://u:***@host/db"),
    ])
  func badUsage(arguments: [String], message: String) {
    let (status, output, errors) = HistoryFixtures.run(arguments)
    #expect(status == 2)
    #expect(output.isEmpty)
    #expect(errors.hasPrefix("bench history: ") && errors.contains(message), "\(errors)")
    #expect(errors.filter { $0 == "\n" }.count == 1)
    #expect(!errors.contains("HUNTER2"), "\(errors)")
  }

  @Test("show on a database that does not exist says how to make one, exit status 2")
  func noDatabase() {
    let path = temporaryFolder("history") + "/none.sqlite"
    let (status, _, errors) = HistoryFixtures.run(["show", "--db", path])
    #expect(status == 2)
    #expect(errors.contains("no history database at \(path)"))
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}

@Suite(
  .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: SQLiteLibrary.isAvailable, HistoryFixtures.skipReason))
struct HistoryCommandTests {
  /// Three benchmarks on one machine recorded through the command; returns the database path.
  func recorded() throws -> (db: String, folder: String) {
    let folder = temporaryFolder("history")
    let db = "sqlite:" + folder + "/Results/history.sqlite"
    for (i, frames) in [[100.0, 102, 104], [101.0, 103, 105], [150.0, 152, 154]].enumerated() {
      let path = try HistoryFixtures.write(
        HistoryFixtures.results(frames, startedAt: "2026-12-0\(i + 1)T10:00:00Z"), named: "r\(i).json",
        in: folder)
      let (status, output, errors) = HistoryFixtures.run([
        "record", path, "--commit", "commit\(i)", "--db", db,
      ])
      #expect(status == 0, "\(errors)")
      #expect(output.hasPrefix("recorded \(path): benchmark \(i + 1), commit commit\(i)"))
    }
    return (db, folder)
  }

  @Test("record stores each file once; the second time it says so and adds nothing")
  func recordTwice() throws {
    let (db, folder) = try recorded()
    let (status, output, _) = HistoryFixtures.run([
      "record", folder + "/r0.json", "--commit", "other", "--db", db,
    ])
    #expect(status == 0)
    #expect(output.contains("already recorded") && output.contains("commit commit0; nothing added"))
    let show = HistoryFixtures.run(["show", "--db", db, "--format", "json"])
    #expect(show.output.components(separatedBy: "\"commit\"").count - 1 == 3)
  }

  @Test("record without --commit takes the commit and branch results.json records (tool.commit, tool.branch)")
  func recordTakesToolCommit() throws {
    let folder = temporaryFolder("history")
    var results = HistoryFixtures.results([100, 101])
    results.tool.commit = "0123456789abcdef0123456789abcdef01234567"
    results.tool.branch = "main"
    let path = try HistoryFixtures.write(results, named: "r.json", in: folder)
    let db = folder + "/h.sqlite"
    let (status, output, errors) = HistoryFixtures.run(["record", path, "--db", db])
    #expect(status == 0, "\(errors)")
    #expect(output.contains("commit 0123456789ab"))
    let show = HistoryFixtures.run(["show", "--db", db, "--format", "csv"])
    #expect(show.output.contains(",0123456789abcdef0123456789abcdef01234567,main,"), "\(show.output)")
    // --commit and --branch still win over what the file records.
    var other = results
    other.settings.startedAt = "2026-12-02T10:00:00Z"
    let second = try HistoryFixtures.write(other, named: "r2.json", in: folder)
    #expect(
      HistoryFixtures.run(["record", second, "--db", db, "--commit", "given", "--branch", "b"]).status == 0)
    #expect(HistoryFixtures.run(["show", "--db", db, "--format", "csv"]).output.contains(",given,b,"))
  }

  @Test("record without --commit says where the commit should come from, exit status 2")
  func recordNeedsCommit() throws {
    let folder = temporaryFolder("history")
    let path = try HistoryFixtures.write(HistoryFixtures.results([100]), named: "r.json", in: folder)
    let (status, _, errors) = HistoryFixtures.run(["record", path, "--db", folder + "/h.sqlite"])
    #expect(status == 2)
    #expect(errors.contains("records no commit (tool.commit): give it with --commit SHA"))
    #expect(errors.filter { $0 == "\n" }.count == 1)
  }

  @Test("show prints one line per benchmark: commit, time, median with its interval, k of n failed")
  func showTable() throws {
    let (db, _) = try recorded()
    let (status, output, errors) = HistoryFixtures.run(["show", "--db", db, "--cell", "warm/deferred"])
    #expect(status == 0, "\(errors)")
    let lines = output.split(separator: "\n")
    #expect(
      lines.first?.contains("bench-1") == true
        && lines.first?.contains("warm/deferred · first_frame_observed") == true)
    #expect(lines.count == 5)
    #expect(
      lines[2].contains("commit0") && lines[2].contains("2026-12-01T10:00:00Z") && lines[2].contains("102.0"))
    #expect(lines[2].contains("[100.0, 104.0]") && lines[2].hasSuffix("0 of 3"))
    #expect(lines[4].contains("commit2") && lines[4].contains("152.0"))
  }

  @Test("show --format csv is Otava's layout: time, commit, then a column per metric")
  func showCSV() throws {
    let (db, _) = try recorded()
    let (status, output, _) = HistoryFixtures.run(["show", "--db", db, "--format", "csv"])
    #expect(status == 0)
    let lines = output.split(separator: "\n").map(String.init)
    #expect(lines.first == "time,commit,branch,machine,warm/deferred/first_frame_observed")
    #expect(lines.count == 4)
    #expect(lines[1].hasPrefix("2026-12-01T10:00:00Z,commit0,,fnv1a64:") && lines[1].hasSuffix(",102.0"))
  }

  @Test("a benchmark whose runs all failed is still a line: no median, n of n failed")
  func allFailed() throws {
    let (db, folder) = try recorded()
    let path = try HistoryFixtures.write(
      HistoryFixtures.results([nil, nil], startedAt: "2026-12-04T10:00:00Z"), named: "failed.json", in: folder
    )
    #expect(HistoryFixtures.run(["record", path, "--commit", "broken", "--db", db]).status == 0)
    let (_, output, _) = HistoryFixtures.run(["show", "--db", db])
    let line = try #require(output.split(separator: "\n").last)
    #expect(line.contains("broken") && line.contains("–") && line.hasSuffix("2 of 2"))
  }

  @Test("show --since leaves out what came before")
  func since() throws {
    let (db, _) = try recorded()
    let (_, output, _) = HistoryFixtures.run(["show", "--db", db, "--since", "2026-12-02", "--format", "csv"])
    #expect(output.split(separator: "\n").count == 3)
    #expect(!output.contains("commit0"))
  }

  @Test("show leaves bisect's probes out; --branch bisect shows them alone; detect takes --branch too")
  func branch() throws {
    let (db, folder) = try recorded()
    let path = try HistoryFixtures.write(
      HistoryFixtures.results([300, 301], startedAt: "2026-12-05T10:00:00Z"), named: "probe.json", in: folder)
    #expect(
      HistoryFixtures.run(["record", path, "--commit", "probe", "--branch", "bisect", "--db", db]).status == 0
    )
    let all = HistoryFixtures.run(["show", "--db", db, "--format", "csv"])
    #expect(all.status == 0 && !all.output.contains("probe") && all.output.contains("commit2"))
    let probes = HistoryFixtures.run(["show", "--db", db, "--format", "csv", "--branch", "bisect"])
    #expect(probes.output.contains("probe") && !probes.output.contains("commit0"), "\(probes.output)")
    #expect(HistoryFixtures.run(["detect", "--db", db, "--branch", "bisect"]).status == 0)
  }
}
