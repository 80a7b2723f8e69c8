import Foundation
import Gates
import Sampling
import Statistics
import TestSupport
import Testing

/// Issue 39, item 2: the sequential design's error rates and runs used, by seeded simulation.
///
/// The runs are drawn around CI's warm/deferred cell as Benchmarks/gate-power.json records it
/// (median 341 ms, noise 5.4 % as 1.4826 × MAD over the median), with a 2 % failure rate on each
/// side (a failed run is +∞), shifted uniformly by 0, 2, 5, 10 and 20 %. CI's fixed step is 30
/// runs a side at a 5 % threshold and α = 0.01.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SequentialDesignTests {
  static let fixedRuns = 30
  static let design = SequentialDesign(
    pairsPerLook: 4, looks: 9, alpha: 0.01, beta: 0.05, threshold: 0.05, powerShift: 0.10)

  /// One side's runs: log-normal around 341 ms with 5.4 % noise, `failureRate` of them +∞.
  static func runs(_ count: Int, shift: Double, failureRate: Double, rng: inout SplitMix64) -> [Double] {
    (0..<count).map { _ in
      let value = 341 * (1 + shift) * exp(0.054 * rng.nextGaussian())
      return rng.nextUnit() < failureRate ? .infinity : value
    }
  }

  struct Row {
    var shift: Double
    var slower = 0
    var faster = 0
    var same = 0
    var unknown = 0
    var totalRuns = 0
    var worstRuns = 0
    var trials = 0
    var meanRuns: Double { Double(totalRuns) / Double(trials) }
  }

  static func simulate(_ design: SequentialDesign, shift: Double, trials: Int, seed: UInt64) -> Row {
    var rng = SplitMix64(seed: seed)
    var row = Row(shift: shift)
    for _ in 0..<trials {
      let reference = runs(design.maximumRuns, shift: 0, failureRate: 0.02, rng: &rng)
      let new = runs(design.maximumRuns, shift: shift, failureRate: 0.02, rng: &rng)
      let outcome = design.run(reference: reference, new: new)
      switch outcome.verdict {
      case .slower: row.slower += 1
      case .faster: row.faster += 1
      case .same: row.same += 1
      case .unknown: row.unknown += 1
      }
      row.totalRuns += outcome.runsPerSide
      row.worstRuns = max(row.worstRuns, outcome.runsPerSide)
      row.trials += 1
    }
    return row
  }

  @Test("the design holds its false alarms, catches 10 % and uses fewer runs than the fixed N")
  func table() {
    let design = Self.design
    #expect(Double(design.maximumRuns) <= 1.25 * Double(Self.fixedRuns))
    var rows: [Row] = []
    for (index, shift) in [0.0, 0.02, 0.05, 0.10, 0.20].enumerated() {
      let row = Self.simulate(
        design, shift: shift, trials: shift == 0 ? 2_000 : 500, seed: 39 + UInt64(index))
      rows.append(row)
      print(
        "shift \(shift): slower \(row.slower) faster \(row.faster) same \(row.same) unknown \(row.unknown)"
          + " of \(row.trials); mean runs \(row.meanRuns), worst \(row.worstRuns) (fixed \(Self.fixedRuns))")
    }
    let aa = rows[0]
    #expect(Double(aa.slower + aa.faster) / Double(aa.trials) <= 0.01)
    #expect(aa.meanRuns <= 0.6 * Double(Self.fixedRuns))
    let ten = rows[3]
    #expect(Double(ten.slower) / Double(ten.trials) >= 0.95)
    #expect(ten.meanRuns <= 0.6 * Double(Self.fixedRuns))
    for row in rows { #expect(Double(row.worstRuns) <= 1.25 * Double(Self.fixedRuns)) }
  }

  @Test("peeking at every look without spending inflates false alarms; spending holds them")
  func peeking() {
    var naive = Self.design
    let fixedBound = NormalDistribution.quantile(1 - Self.design.alpha / 2)
    naive.efficacyBounds = Array(repeating: fixedBound, count: naive.looks)
    naive.equivalenceBounds = Array(repeating: .infinity, count: naive.looks)
    var spending = Self.design
    spending.equivalenceBounds = Array(repeating: .infinity, count: spending.looks)
    // Zero threshold so the ratio rule never hides a crossing: the pure rank test's error rate.
    naive.threshold = 0
    spending.threshold = 0
    let peeked = Self.simulate(naive, shift: 0, trials: 4_000, seed: 7)
    let spent = Self.simulate(spending, shift: 0, trials: 4_000, seed: 7)
    let peekedRate = Double(peeked.slower + peeked.faster) / Double(peeked.trials)
    let spentRate = Double(spent.slower + spent.faster) / Double(spent.trials)
    print("false alarms at α = 0.01 over 9 looks: peeking \(peekedRate), spending \(spentRate)")
    #expect(peekedRate > 2 * Self.design.alpha)
    #expect(spentRate <= 1.3 * Self.design.alpha)
  }

  @Test("the bounds spend α: O'Brien–Fleming-type, high early, near the fixed test's at the end")
  func bounds() {
    let bounds = SequentialDesign.spendingBounds(looks: 5, total: 0.025, spending: .obrienFleming)
    #expect(bounds[0] > 4 && bounds[0] < 5)
    #expect(bounds[4] > 1.96 && bounds[4] < 2.1)
    #expect(zip(bounds, bounds.dropFirst()).allSatisfy { $0 > $1 })
  }
}

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SequentialPowerTests {
  @Test("resampling recorded runs: A/A says SAME in few runs, +20 % says SLOWER, all seeded")
  func resampled() {
    var rng = SplitMix64(seed: 41)
    let recorded = SequentialDesignTests.runs(60, shift: 0, failureRate: 0.02, rng: &rng)
    let design = SequentialDesignTests.design
    let aa = design.power(recorded: recorded, shift: 0, trials: 300, seed: 1)
    let big = design.power(recorded: recorded, shift: 0.2, trials: 300, seed: 2)
    #expect(aa == design.power(recorded: recorded, shift: 0, trials: 300, seed: 1))
    #expect((aa.verdicts[.slower] ?? 0) + (aa.verdicts[.faster] ?? 0) <= 6)
    #expect(aa.meanRuns <= 0.6 * Double(SequentialDesignTests.fixedRuns))
    #expect(big.verdicts[.slower] == 300)
    #expect(aa.worstRuns <= design.maximumRuns && big.worstRuns <= design.maximumRuns)
    #expect(design.power(recorded: [], shift: 0, trials: 10, seed: 3).trials == 0)
  }

  @Test(
    "CI's step fails a cell SLOWER, or UNKNOWN beyond the threshold (no ratio too), as scripts/ab-gate reads it; resampling counts those"
  )
  func stepFailures() {
    let design = SequentialDesignTests.design
    let a = [Double](repeating: 100, count: 8)
    func outcome(_ verdict: SequentialVerdict) -> SequentialOutcome {
      SequentialOutcome(verdict: verdict, look: 2, runsPerSide: 8)
    }
    #expect(design.failsStep(outcome(.slower), reference: a, new: a))
    #expect(!design.failsStep(outcome(.same), reference: a, new: a.map { $0 * 1.2 }))
    #expect(!design.failsStep(outcome(.faster), reference: a, new: a))
    #expect(!design.failsStep(outcome(.unknown), reference: a, new: a.map { $0 * 1.04 }))
    #expect(design.failsStep(outcome(.unknown), reference: a, new: a.map { $0 * 1.06 }))
    // Only the runs used count: beyond them B is far slower, but the look stopped before.
    #expect(!design.failsStep(outcome(.unknown), reference: a + [100], new: a + [900]))
    let failed = [Double](repeating: .infinity, count: 8)
    #expect(design.failsStep(outcome(.unknown), reference: failed, new: failed))
    #expect(!design.failsStep(outcome(.unknown), reference: failed, new: a))
    // Resampled: every SLOWER fails the step, and some UNKNOWN may; SAME and FASTER never do.
    var rng = SplitMix64(seed: 43)
    let recorded = SequentialDesignTests.runs(60, shift: 0, failureRate: 0.02, rng: &rng)
    for shift in [0.0, 0.05, 0.2] {
      let p = design.power(recorded: recorded, shift: shift, trials: 200, seed: 5)
      let slower = p.verdicts[.slower] ?? 0
      #expect(p.stepFailures >= slower && p.stepFailures <= slower + (p.verdicts[.unknown] ?? 0), "\(p)")
    }
    #expect(design.power(recorded: recorded, shift: 0.2, trials: 200, seed: 5).stepFailures == 200)
  }
}
