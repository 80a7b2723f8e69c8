import Foundation
import ResultsSchema
import Testing

/// The light board's capture time became whole microseconds (issue 11 item 8): the probe's
/// `display.first_live_frame` and `display.stale_frame` events now carry `capture_time_us` where
/// they carried `capture_time_ms`. Results and baselines written before keep the old field in
/// their runs' timelines. Decision: they load unchanged — an event's fields are free-form text
/// (`TimelineEvent.fields`) that no reader interprets, so the old name is kept as it was written,
/// never read as microseconds.
@Suite struct OldResultsCompatibilityTests {
  /// A baseline written before the rename: the first cell (cold/deferred, 20 runs) of the
  /// synthetic baseline committed then (`Results/baselines/synthetic.json` has since been
  /// recorded again, with `capture_time_us`).
  static var baselinePath: String { ResultsContractTests.fixturePath("baseline-capture-time-ms.json") }

  @Test(
    "a baseline written with capture_time_ms loads, keeps the old field as written, and encodes back with it")
  func baselineWithMilliseconds() throws {
    let results = try ResultsFile.load(path: Self.baselinePath)
    #expect(!results.cells.isEmpty)
    let events = results.cells.flatMap(\.records).flatMap { $0.timeline ?? [] }
      .filter { $0.name == "display.first_live_frame" }
    let old = events.filter { $0.fields?["capture_time_ms"] != nil }
    #expect(!old.isEmpty, "the baseline no longer has a capture_time_ms event: this test checks nothing")
    #expect(old.allSatisfy { $0.fields?["capture_time_us"] == nil })
    let again = try ResultsFile.decode(try ResultsFile.encode(results), name: "re-encoded")
    let kept = again.cells.flatMap(\.records).flatMap { $0.timeline ?? [] }
      .filter { $0.fields?["capture_time_ms"] != nil }
    #expect(kept.count == old.count)
  }
}

/// `thread_states.x_server` became `display_server` (issue 36 item 5: it holds a Wayland
/// compositor's threads too). Results written before keep the old name; they load with the
/// figures under ``BenchResults/ThreadStatesRecord/displayServer`` and are written back with
/// the new name only.
@Suite struct DisplayServerRenameTests {
  /// Results written with `x_server`: the first cell (cold/deferred, 2 runs, timelines left out)
  /// of a `--display wayland --thread-states on` benchmark at commit 74cd610, before the rename.
  static var fixturePath: String { ResultsContractTests.fixturePath("thread-states-x-server.json") }

  @Test("results written with thread_states.x_server load its figures as display_server")
  func oldNameLoads() throws {
    let text = try #require(FileManager.default.contents(atPath: Self.fixturePath))
    #expect(String(decoding: text, as: UTF8.self).contains("\"x_server\""))
    let results = try ResultsFile.load(path: Self.fixturePath)
    let records = results.cells.flatMap(\.records)
    #expect(records.count == 2)
    for record in records {
      let states = try #require(record.threadStates, "run \(record.run) has no thread_states")
      let figures = try #require(states.displayServer, "run \(record.run): x_server was not read")
      #expect((figures["first_frame_observed"]?.cpuMs ?? 0) > 0, "run \(record.run): \(figures)")
    }
  }

  @Test("a loaded file is written back with display_server, never x_server, and the same figures")
  func writtenWithTheNewName() throws {
    let results = try ResultsFile.load(path: Self.fixturePath)
    let encoded = try ResultsFile.encode(results)
    let text = String(decoding: encoded, as: UTF8.self)
    #expect(text.contains("\"display_server\""))
    #expect(!text.contains("\"x_server\""))
    let again = try ResultsFile.decode(encoded, name: "re-encoded")
    #expect(
      again.cells.flatMap(\.records).map(\.threadStates?.displayServer)
        == results.cells.flatMap(\.records).map(\.threadStates?.displayServer))
  }

  @Test("a record with both names reads display_server's figures")
  func newNameWins() throws {
    let figures =
      #"{"cpu_ms": 1, "runqueue_ms": 0, "io_ms": 0, "major_faults": 0, "minor_faults": 0, "voluntary_switches": 1, "involuntary_switches": 0}"#
    let json = """
      {"method": "tracefs", "lost_events": 0, "incomplete": false, "events": 1, "main": {}, "tree": {},
       "display_server": {"a": \(figures)}, "x_server": {"b": \(figures)}}
      """
    let record = try JSONDecoder().decode(BenchResults.ThreadStatesRecord.self, from: Data(json.utf8))
    #expect(record.displayServer?.keys.sorted() == ["a"])
  }
}
