import Foundation
import Gates
import Reports
import ResultsSchema
import Statistics
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct GateSizingTests {
  static func results(noise: Double, runs: Int = 60, seed: UInt64 = 7) -> BenchResults {
    SyntheticResults.gaussian(
      [
        SyntheticResults.GaussianCell(config: "deferred", medianMs: 320, noise: noise),
        SyntheticResults.GaussianCell(config: "eager", medianMs: 750, noise: noise),
      ], runs: runs, seed: seed)
  }

  @Test("sizing picks the smallest run count from which every count tried meets the goals")
  func smallestMeetingGoals() throws {
    let sizing = GateSizing.size(Self.results(noise: 0.02), margin: 2, comparisonsPerCell: 400)
    #expect(sizing.cells == ["warm/deferred", "warm/eager"])
    #expect(sizing.rows.map(\.runsPerSide) == Array(3...30))
    let smallest = try #require(sizing.smallestRunsPerSide)
    let index = try #require(sizing.rows.firstIndex { $0.runsPerSide == smallest })
    #expect(sizing.rows[index...].allSatisfy { $0.meets(sizing.goals) })
    #expect(index > 0 && !sizing.rows[index - 1].meets(sizing.goals))
    #expect(sizing.chosenRunsPerSide == min(30, 2 * smallest))
    // 2 % noise: the ratio of medians spreads by ~3.5 %/√n, so a few runs a side already put a 10 %
    // slowdown beyond the 5 % threshold and a healthy change within it.
    #expect((4...12).contains(smallest), "smallest \(smallest)")
  }

  @Test("noisier runs need more runs per side, and runs too noisy for any count are said to be")
  func noise() throws {
    let quiet = try #require(
      GateSizing.size(Self.results(noise: 0.02), comparisonsPerCell: 400).smallestRunsPerSide)
    let noisy = try #require(
      GateSizing.size(Self.results(noise: 0.04), comparisonsPerCell: 400).smallestRunsPerSide)
    #expect(noisy > quiet)
    let hopeless = GateSizing.size(Self.results(noise: 0.30), comparisonsPerCell: 400)
    #expect(hopeless.smallestRunsPerSide == nil && hopeless.chosenRunsPerSide == nil)
    #expect(GatePowerTable.sizingText(hopeless).contains("no run count up to 30 per side met the goals"))
  }

  @Test("a false-alarm count too small to show ≤ 1 % is not taken as meeting the goal")
  func boundsNotPointEstimates() {
    // 0 false alarms in 200 comparisons: the 95 % upper bound is 1.5 %, above the goal.
    let row = GateSizing.Row(runsPerSide: 10, comparisons: 200, caught: [200, 200], familyFalseAlarms: 0)
    #expect(row.familyFalseAlarmRate == 0)
    #expect(!row.meets(GateSizing.Goals()))
    let more = GateSizing.Row(runsPerSide: 10, comparisons: 1000, caught: [1000, 1000], familyFalseAlarms: 0)
    #expect(more.meets(GateSizing.Goals()))
  }

  @Test("Clopper–Pearson bounds: 0 of n gives 1 − 0.05^(1/n); lower and upper mirror each other")
  func binomialBounds() {
    for n in [30, 250, 1000] {
      #expect(abs(BinomialBounds.upper(events: 0, trials: n) - (1 - pow(0.05, 1 / Double(n)))) < 1e-9)
      #expect(abs(BinomialBounds.lower(events: n, trials: n) - pow(0.05, 1 / Double(n))) < 1e-9)
    }
    #expect(abs(BinomialBounds.upper(events: 0, trials: 250) - 0.0119) < 0.0001)
    let up = BinomialBounds.upper(events: 3, trials: 100)
    #expect(abs(BinomialBounds.lower(events: 97, trials: 100) - (1 - up)) < 1e-12)
    #expect(up > 0.03 && up < 0.08)
    #expect(BinomialBounds.upper(events: 5, trials: 5) == 1)
    #expect(BinomialBounds.lower(events: 0, trials: 5) == 0)
    #expect(BinomialBounds.upper(events: 0, trials: 0).isNaN)
  }
}
