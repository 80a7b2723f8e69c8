import Gates
import ResultsSchema
import TestSupport
import Testing

/// Issue 37, item 3: quality is gated like time. A cell whose runs drop frames, show stale frames,
/// miss the compositor's deadlines or forge events significantly more often than the baseline's
/// fails the gate, as a rise in its failure rate does (`quality CELL`).
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct QualityGateTests {
  /// deferred and eager, warm, 20 runs each, no quality event anywhere.
  static func clean(seed: UInt64 = 7) -> BenchResults {
    SyntheticResults.make(conditions: ["warm"], seed: seed)
  }

  /// `results` with `count` set to `value` in the first `runs` records of `config`'s cells.
  static func with(
    _ count: CountKey, _ value: Int, inFirst runs: Int, of config: String, _ results: BenchResults
  ) -> BenchResults {
    var results = results
    for c in results.cells.indices where results.cells[c].config == config {
      for r in results.cells[c].records.indices.prefix(runs) {
        results.cells[c].records[r].counts[count.rawValue] = value
      }
    }
    return results
  }

  static func quality(_ report: GateReport, _ cell: String) -> GateOutcome? {
    report.outcomes.first { $0.name == "\(Gate.qualityPhase) \(cell)" }
  }

  @Test(
    "one dropped frame in every deferred run, against none in the baseline, fails the gate (the drop issue 37 found)"
  )
  func droppedFrameInEveryRunFails() throws {
    let results = Self.with(.droppedFrames, 1, inFirst: 20, of: "deferred", Self.clean(seed: 8))
    let report = Gate.checkBaseline(results, against: Self.clean(), options: .init())
    #expect(!report.passed, "\(report.outcomes.map(\.line))")
    let deferred = try #require(Self.quality(report, "deferred/warm"))
    #expect(deferred.status == .fail, "\(deferred.line)")
    #expect(
      deferred.message.contains("dropped_frames in 20 of 20 runs (20 in all) vs 0 of 20"), "\(deferred.line)")
    let eager = try #require(Self.quality(report, "eager/warm"))
    #expect(eager.status == .pass, "\(eager.line)")
    #expect(
      eager.message.contains("no run of either side counted dropped_frames, stale_frames"), "\(eager.line)")
  }

  @Test(
    "stale frames, missed deadlines and forged events gate too",
    arguments: [CountKey.staleFrames, .missedDeadlines, .forgedEvents])
  func everyQualityCountGates(count: CountKey) throws {
    let baseline = Self.with(count, 0, inFirst: 20, of: "deferred", Self.clean())
    let results = Self.with(
      count, 3, inFirst: 12, of: "deferred",
      Self.with(count, 0, inFirst: 20, of: "deferred", Self.clean(seed: 8)))
    let report = Gate.checkBaseline(results, against: baseline, options: .init())
    let deferred = try #require(Self.quality(report, "deferred/warm"))
    #expect(deferred.status == .fail, "\(deferred.line)")
    #expect(
      deferred.message.contains("\(count.rawValue) in 12 of 20 runs (36 in all) vs 0 of 20"),
      "\(deferred.line)")
  }

  @Test("a rise that is not significant passes: 2 of 20 runs with a dropped frame against 0 of 20")
  func smallRisePasses() throws {
    let results = Self.with(.droppedFrames, 1, inFirst: 2, of: "deferred", Self.clean(seed: 8))
    let report = Gate.checkBaseline(results, against: Self.clean(), options: .init())
    let deferred = try #require(Self.quality(report, "deferred/warm"))
    #expect(deferred.status == .pass, "\(deferred.line)")
    #expect(deferred.message.contains("not significant"), "\(deferred.line)")
  }

  @Test("the same share as the baseline passes, and a count one side does not record is not compared")
  func sameShareAndUnrecordedPass() throws {
    let baseline = Self.with(.droppedFrames, 1, inFirst: 10, of: "deferred", Self.clean())
    let results = Self.with(
      .missedDeadlines, 1, inFirst: 20, of: "deferred",
      Self.with(.droppedFrames, 2, inFirst: 10, of: "deferred", Self.clean(seed: 8)))
    let report = Gate.checkBaseline(results, against: baseline, options: .init())
    let deferred = try #require(Self.quality(report, "deferred/warm"))
    #expect(deferred.status == .pass, "\(deferred.line)")
    #expect(deferred.message.contains("missed_deadlines not recorded in the baseline"), "\(deferred.line)")
  }

  @Test("no quality counts to compare (BaselineOptions.qualityCounts empty): no quality check")
  func optOut() {
    var options = Gate.BaselineOptions()
    options.qualityCounts = []
    let results = Self.with(.droppedFrames, 1, inFirst: 20, of: "deferred", Self.clean(seed: 8))
    let report = Gate.checkBaseline(results, against: Self.clean(), options: options)
    #expect(!report.outcomes.contains { $0.phase == Gate.qualityPhase })
  }

  @Test("counts a hostile results file sets to Int.max are summed without a trap")
  func hugeCounts() throws {
    let results = Self.with(.staleFrames, Int.max, inFirst: 20, of: "deferred", Self.clean(seed: 8))
    let report = Gate.checkBaseline(results, against: Self.clean(), options: .init())
    let deferred = try #require(Self.quality(report, "deferred/warm"))
    #expect(deferred.status == .fail, "\(deferred.line)")
    #expect(
      deferred.message.contains("stale_frames in 20 of 20 runs (\(Int.max) in all)"), "\(deferred.line)")
  }
}
