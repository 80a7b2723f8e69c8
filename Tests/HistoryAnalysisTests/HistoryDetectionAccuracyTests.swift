import Foundation
import HistoryAnalysis
import ResultsSchema
import Sampling
import TestSupport
import TestThreads
import Testing

/// Issue 26's detection goals, held by `detect`'s defaults on the committed baseline's noise (a
/// short, seeded version of `Benchmarks/history-accuracy`: the same series every time, so it
/// cannot flake).
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct HistoryDetectionAccuracyTests {
  /// warm/deferred `first_frame_observed` of `Results/baselines/synthetic.json`, ms.
  static func baselineRuns() throws -> [Double] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let results = try ResultsFile.load(
      path: root.path + "/Results/baselines/synthetic.json", timelines: .none)
    let cell = try #require(results.cells.first { $0.condition == "warm" && $0.config == "deferred" })
    return cell.records.filter(\.ok).compactMap { $0.phases["first_frame_observed"] }
  }

  @Test("detect's defaults: at most 1 in 100 flat 60-point series has a change point")
  func falseChangePoints() throws {
    let runs = try Self.baselineRuns()
    var simulation = HistoryDetectionAccuracy(runs: runs, runsPerPoint: runs.count)
    simulation.stepSeries = 0
    let outcome = simulation.measure(options: .history)
    #expect(outcome.flatWithChange <= 1, "\(outcome.flatWithChange) of 100 flat series had a change point")
  }

  @Test("detect's defaults find a 5 % step in 30-point series at least 9 times in 10, within ±1")
  func stepsFound() throws {
    let runs = try Self.baselineRuns()
    var simulation = HistoryDetectionAccuracy(runs: runs, runsPerPoint: runs.count)
    simulation.flatSeries = 0
    simulation.stepSeries = 50
    let outcome = simulation.measure(options: .history)
    #expect(outcome.locationErrors.count == 50)
    #expect(outcome.found >= 45, "found \(outcome.found) of 50")
  }

  @Test("a step ten times the noise is found exactly where it is")
  func location() {
    // Runs 1 % apart around 100 ms; a 10 % step at point 12 of 30.
    var simulation = HistoryDetectionAccuracy(runs: (0..<20).map { 99 + Double($0) / 10 }, runsPerPoint: 5)
    simulation.flatSeries = 0
    simulation.stepSeries = 5
    simulation.step = 0.1
    simulation.stepPositions = 12...12
    let outcome = simulation.measure(options: .history)
    #expect(outcome.locationErrors == Array(repeating: 0, count: 5))
  }
}
