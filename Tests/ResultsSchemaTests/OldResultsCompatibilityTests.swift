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
