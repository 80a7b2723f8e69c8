import LaunchContract
import Sampling
import TestSupport
import Testing
@testable import Gates
@testable import Reports
@testable import RunAnalysis

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct GatePowerTests {
  static let results = SyntheticResults.make(
    configs: ["deferred", "eager"], conditions: ["cold", "warm"], seed: 11, runs: 40)

  @Test("A/A splits of one distribution raise few false alarms, and a 20 % slowdown is nearly always caught")
  func falseAlarmsAndPower() {
    let r = GatePower.measure(Self.results, comparisonsPerCell: 100, inconclusive: .pass)
    #expect(r.cells.count == 4)
    #expect(r.aaComparisons == 400)
    #expect(r.falseAlarmRate <= 0.01, "\(r.aaFalseAlarms) false alarms")
    #expect((r.caughtRate(at: 0.20) ?? 0) >= 0.95)
    // A slowdown well below the 5 % threshold is rarely flagged: the medians must differ by 5 %.
    #expect((r.caughtRate(at: 0.01) ?? 1) <= 0.02)
    #expect((r.caughtRate(at: 0.03) ?? 1) < (r.caughtRate(at: 0.10) ?? 0))
    #expect((r.caughtRate(at: 0.15) ?? 0) >= (r.caughtRate(at: 0.08) ?? 1))
    let smallest = r.smallestShiftCaught()
    #expect(smallest != nil && smallest! > 0.05 && smallest! <= 0.20)
  }

  @Test("the measurement is reproducible from its seed; cells with too few runs are skipped, with the reason")
  func seededAndSkipped() {
    let a = GatePower.measure(Self.results, comparisonsPerCell: 20, shifts: [0.1])
    let b = GatePower.measure(Self.results, comparisonsPerCell: 20, shifts: [0.1])
    #expect(a == b)
    let few = GatePower.measure(SyntheticResults.make(runs: 30), comparisonsPerCell: 5, shifts: [0.1])
    #expect(few.cells.isEmpty)
    #expect(few.familyComparisons == 0)
    #expect(few.skipped.count == 8 && few.skipped.allSatisfy { $0.contains("30 counted runs") })
  }

  @Test("A/A false alarms are counted family-wise: a gate run over all the cells fails when any cell does")
  func familyWise() {
    // 3 runs a side and 8 % noise: each cell alone raises false alarms often under `fail`.
    let cells = [
      SyntheticResults.GaussianCell(config: "deferred", medianMs: 320, noise: 0.08),
      SyntheticResults.GaussianCell(config: "eager", medianMs: 750, noise: 0.08),
    ]
    let both = SyntheticResults.gaussian(cells, runs: 40)
    let r = GatePower.measure(both, runsPerSide: 3, comparisonsPerCell: 300, shifts: [])
    let rule = GatePower.Rule(threshold: r.threshold, alpha: r.alpha, inconclusive: .fail)
    let alarms = both.orderedCells.map { cell in
      GatePower.measureCell(
        name: "\(cell.condition)/\(cell.config)",
        samples: cell.rankedSamples(for: PhaseName.firstFrameObserved),
        runsPerSide: 3, comparisons: 300, shifts: [], rule: rule, seed: r.seed
      ).1
    }
    let expected = (0..<300).filter { i in alarms.contains { $0[i] } }.count
    #expect(r.familyComparisons == 300)
    #expect(r.familyFalseAlarms == expected)
    #expect(r.cells.map(\.aaFalseAlarms) == alarms.map { $0.filter { $0 }.count })
    // Two cells that alarm on different comparisons: the family fails more often than either.
    #expect(r.familyFalseAlarms > r.cells.map(\.aaFalseAlarms).max()!)
    #expect(r.familyFalseAlarms < r.aaFalseAlarms)
    #expect(r.familyFalseAlarmUpperBound > r.familyFalseAlarmRate)
    // One cell alone: the family is that cell.
    let one = GatePower.measure(
      SyntheticResults.gaussian([cells[0]], runs: 40), runsPerSide: 3, comparisonsPerCell: 300, shifts: [])
    #expect(one.familyFalseAlarms == one.aaFalseAlarms)
  }

  @Test("the inconclusive policy decides what a slower median without significance counts as")
  func policy() {
    // 3 against 3 runs: the smallest exact Mann–Whitney p is 0.1, so a slower median is never
    // significant at α = 0.01 — it is inconclusive, failing under `fail` and passing under `pass`.
    let baseline = [100.0, 101, 102]
    let new = [108.0, 110, 111]
    #expect(
      GatePower.Rule(threshold: 0.05, alpha: 0.01, inconclusive: .fail).fails(baseline: baseline, new: new))
    #expect(
      !GatePower.Rule(threshold: 0.05, alpha: 0.01, inconclusive: .pass).fails(baseline: baseline, new: new))
    #expect(
      !GatePower.Rule(threshold: 0.05, alpha: 0.01, inconclusive: .fail).fails(baseline: new, new: baseline))

    let results = SyntheticResults.gaussian(
      [SyntheticResults.GaussianCell(config: "deferred", medianMs: 320, noise: 0.02)], runs: 40)
    let failing = GatePower.measure(results, runsPerSide: 3, comparisonsPerCell: 200, shifts: [0.10])
    let passing = GatePower.measure(
      results, runsPerSide: 3, comparisonsPerCell: 200, shifts: [0.10], inconclusive: .pass)
    #expect(failing.inconclusive == .fail && passing.inconclusive == .pass)
    #expect(passing.cells[0].shifts[0].caught == 0)
    #expect(failing.cells[0].shifts[0].caught > 150)
  }

  @Test("failed runs are resampled as slower than any finished run, not dropped")
  func failedRunsCountAsSlow() {
    // 40 runs of which 10 failed: 40 counted runs, enough for 20 a side.
    let results = SyntheticResults.gaussian(
      [SyntheticResults.GaussianCell(config: "deferred", medianMs: 320, noise: 0.02, failed: 10)], runs: 40)
    let r = GatePower.measure(results, comparisonsPerCell: 100, shifts: [0.10])
    #expect(r.skipped.isEmpty)
    #expect(r.cells.first?.runs == 40)
    #expect(r.cells.first?.failedRuns == 10)
    // A side where most runs did not reach the first frame is slower than any, however fast the rest.
    let rule = GatePower.Rule(threshold: 0.05, alpha: 0.01, inconclusive: .fail)
    let fast = [90.0, 91, 92, 93, 94]
    let slow = [100.0, 101, .infinity, .infinity, .infinity]
    #expect(rule.fails(baseline: fast, new: slow))
    #expect(!rule.fails(baseline: slow, new: fast))
  }

  @Test("the table states each goal and whether it was met")
  func table() {
    let r = GatePower.measure(Self.results, comparisonsPerCell: 400)
    let text = GatePowerTable.text(r, source: "r.json")
    #expect(text.contains("inconclusive fail"))
    #expect(text.contains("false alarms, family-wise (a gate run over all 4 cells fails when any does):"))
    #expect(text.contains("95 % upper bound"))
    #expect(text.contains("smallest shift caught in ≥ 95 % of comparisons in every cell:"))
  }
}

extension GatePowerTests {
  @Test(
    "across sessions, each side is drawn from its own recording: drift between them is a false alarm that a split of either hides"
  )
  func acrossSessions() {
    let session = { (median: Double, seed: UInt64) in
      SyntheticResults.gaussian(
        [SyntheticResults.GaussianCell(config: "deferred", medianMs: median, noise: 0.03)], runs: 40,
        seed: seed)
    }
    let monday = session(320, 3)
    // The same distribution in another session: few false alarms, the slowdown still caught.
    let same = GatePower.measure(
      session(320, 4), against: monday, comparisonsPerCell: 200, shifts: [0.10, 0.20])
    #expect(same.cells.count == 1 && same.baselineMeasuredOn != nil)
    #expect(same.falseAlarmRate <= 0.02, "\(same.aaFalseAlarms) false alarms")
    #expect((same.caughtRate(at: 0.20) ?? 0) >= 0.95)
    // A session that drifted 8 % slower: every A/A comparison across the two fails, where a split
    // of that session alone raises few.
    let drifted = session(320 * 1.08, 5)
    let across = GatePower.measure(drifted, against: monday, comparisonsPerCell: 200, shifts: [])
    #expect(across.falseAlarmRate >= 0.95, "\(across.aaFalseAlarms) false alarms")
    let within = GatePower.measure(drifted, comparisonsPerCell: 200, shifts: [])
    #expect(within.falseAlarmRate <= 0.02 && within.baselineMeasuredOn == nil)
    // 30 runs a side from 40 on each: the halves need not be disjoint, only each side large enough.
    #expect(
      GatePower.measure(drifted, against: monday, runsPerSide: 30, comparisonsPerCell: 5).cells.count == 1)
    // A cell the baseline lacks, or too few runs on a side, is skipped with the reason.
    let eager = SyntheticResults.gaussian(
      [SyntheticResults.GaussianCell(config: "eager", medianMs: 700, noise: 0.03)], runs: 40)
    #expect(
      GatePower.measure(eager, against: monday, comparisonsPerCell: 5).skipped == [
        "warm/eager: not in the baseline"
      ])
    let short = GatePower.measure(drifted, against: monday, runsPerSide: 41, comparisonsPerCell: 5)
    #expect(short.cells.isEmpty && short.skipped.first?.contains("fewer than 41 on a side") == true)
  }
}
