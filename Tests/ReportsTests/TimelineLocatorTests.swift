import Foundation
import LaunchContract
import TestSupport
import Testing
@testable import ResultsSchema

/// Reading results without their timelines (`TimelineLocator`) gives what decoding the whole file
/// with the same selection gives; a file the locator cannot follow is decoded as it is.
@Suite struct TimelineLocatorTests {
  /// Results with timelines (and a failed run, which has none).
  static func results() -> BenchResults {
    SyntheticResults.make(runs: 12, failEvery: 5, comparisons: true)
  }

  /// `results` as a reader with `selection` must see it: timelines dropped except those selected.
  static func expected(_ results: BenchResults, keeping runs: [Int: Int]) -> BenchResults {
    var r = results
    for i in r.cells.indices {
      for j in r.cells[i].records.indices where runs[i] != r.cells[i].records[j].run {
        r.cells[i].records[j].timeline = nil
      }
    }
    return r
  }

  @Test("without timelines: the same results as the whole file minus every timeline")
  func noTimelines() throws {
    let results = Self.results()
    let data = try ResultsFile.encode(results)
    let located = try #require(TimelineLocator(data))
    let withTimelines = results.cells.flatMap(\.records).filter { $0.timeline != nil }.count
    #expect(withTimelines > 0)
    #expect(located.ranges.values.map(\.count).reduce(0, +) == withTimelines)
    #expect(!String(decoding: located.withoutTimelines, as: UTF8.self).contains("t_ms"))
    let read = try ResultsFile.decode(data, name: "r.json", timelines: .none)
    #expect(try ResultsFile.encode(read) == ResultsFile.encode(Self.expected(results, keeping: [:])))
  }

  @Test("representative timelines: the median run's of each cell, decoded from their own bytes")
  func representativeTimelines() throws {
    let results = Self.results()
    let data = try ResultsFile.encode(results)
    var runs: [Int: Int] = [:]
    for (i, cell) in results.cells.enumerated() { runs[i] = MedianRun.pick(cell)?.run }
    let read = try ResultsFile.decode(data, name: "r.json", timelines: .representative)
    #expect(read.cells.allSatisfy { $0.records.contains { $0.timeline?.isEmpty == false } })
    #expect(try ResultsFile.encode(read) == ResultsFile.encode(Self.expected(results, keeping: runs)))
    let some = try ResultsFile.decode(data, name: "r.json", timelines: .runs([1: 3]))
    #expect(try ResultsFile.encode(some) == ResultsFile.encode(Self.expected(results, keeping: [1: 3])))
  }

  @Test("a timeline with text beyond ASCII, escapes and nulls is located and read back the same")
  func unusualTimelines() throws {
    var results = Self.results()
    results.cells[0].records[0].timeline?[0].fields = ["note": "caméra \"front\"\n\u{1F4F7}"]
    results.cells[0].records[1].timeline = nil
    results.cells[0].records[2].timeline = []
    let data = try ResultsFile.encode(results)
    #expect(TimelineLocator(data) != nil)
    let runs = [0: results.cells[0].records[0].run]
    let read = try ResultsFile.decode(data, name: "r.json", timelines: .runs(runs))
    #expect(try ResultsFile.encode(read) == ResultsFile.encode(Self.expected(results, keeping: runs)))
  }

  @Test("a timeline that is not JSON fails the file as before: the locator does not hide it")
  func brokenTimelineStillFails() throws {
    let text = String(decoding: try ResultsFile.encode(Self.results()), as: UTF8.self)
    // The first event's kind, a string, becomes a bare word: not JSON.
    let broken = try #require(text.range(of: #""kind" : ""#))
    let data = Data(text.replacingCharacters(in: broken, with: #""kind" : tru""#).utf8)
    #expect(TimelineLocator(data) == nil)
    #expect(throws: ResultsFileError.self) { try ResultsFile.decode(data, name: "r.json", timelines: .none) }
  }

  @Test("a file the locator will not follow (an escaped key, a key given twice) is read whole, the same")
  func unfollowedFilesReadWhole() throws {
    let results = Self.results()
    let text = String(decoding: try ResultsFile.encode(results), as: UTF8.self)
    let escaped = Data(text.replacingOccurrences(of: #""timeline" :"#, with: #""timel\u0069ne" :"#).utf8)
    #expect(TimelineLocator(escaped) == nil)
    let read = try ResultsFile.decode(escaped, name: "r.json", timelines: .none)
    #expect(try ResultsFile.encode(read) == ResultsFile.encode(Self.expected(results, keeping: [:])))
    // The decoder reads the escaped key as `timeline`: the representative runs keep theirs.
    var runs: [Int: Int] = [:]
    for (i, cell) in results.cells.enumerated() { runs[i] = MedianRun.pick(cell)?.run }
    let representative = try ResultsFile.decode(escaped, name: "r.json", timelines: .representative)
    #expect(
      try ResultsFile.encode(representative) == ResultsFile.encode(Self.expected(results, keeping: runs)))
    let twice = Data(
      text.replacingOccurrences(of: #""run" :"#, with: #""timeline" : null, "timeline" : [], "run" :"#).utf8)
    #expect(TimelineLocator(twice) == nil)
    #expect(throws: Never.self) { try ResultsFile.decode(twice, name: "r.json", timelines: .none) }
  }
}
