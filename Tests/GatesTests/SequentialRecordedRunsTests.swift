import Gates
import Sampling
import Statistics
import TestSupport
import Testing

/// Issue 39, item 2: the sequential design CI's step runs (``Gate/sequentialDesign``), on runs
/// recorded at CI's own noise, resampled with planted uniform shifts — against the fixed step it
/// replaced (30 runs a side, a cell failing when B's median is beyond 1.05, as `bench gate
/// --inconclusive fail` reads it). The runs are first_frame_observed (ms) of warm deferred and
/// eager from `Benchmarks/sequential-design-runs.json` (both sides of a `bench ab` that changed
/// nothing pooled; docs/measurements/2026-12-07-sequential-design.md): "quiet" is CI's own step
/// (1.7 % and 1.6 % noise), "loaded" the machine shared with builds (11 % and 14 %).
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct SequentialRecordedRunsTests {
  static let fixedRuns = 30
  /// CI's design, made once (its bounds come from 200,000 simulated paths).
  static let design = Gate.sequentialDesign()

  static let quiet: [String: [Double]] = [
    "deferred": [
      323.6, 327.2, 318.6, 322.1, 323.6, 315.8, 333.4, 317.3, 316.8, 319.5,
      326.1, 324.0, 310.4, 319.3, 322.7, 329.2, 326.0, 324.1, 325.3, 320.7,
      324.9, 325.9, 322.0, 316.5, 327.6, 322.4, 315.6, 324.0, 324.0, 317.5,
      321.0, 319.1, 327.4, 312.6, 324.6, 325.2, 311.0, 326.2, 325.2, 328.2,
      312.2, 322.4, 322.3, 329.1, 321.0, 333.9, 329.0, 314.1, 317.6, 327.1,
      319.4, 316.0, 326.0, 324.8, 323.8, 315.1, 315.4, 328.6, 319.1, 326.2,
    ],
    "eager": [
      733.5, 759.2, 751.0, 756.0, 758.9, 743.3, 763.8, 753.9, 754.2, 744.3,
      749.4, 747.6, 777.2, 768.1, 756.8, 760.8, 752.3, 742.7, 757.1, 744.8,
      740.8, 759.0, 749.5, 752.1, 760.6, 752.5, 741.7, 735.0, 758.8, 744.1,
      734.9, 736.0, 741.7, 764.7, 745.5, 739.6, 758.3, 733.6, 739.4, 762.0,
      753.3, 745.2, 737.0, 733.8, 740.8, 753.4, 755.2, 767.4, 742.0, 754.5,
      750.7, 762.7, 743.7, 741.8, 747.9, 750.0, 738.5, 768.6, 732.5, 740.5,
    ],
  ]

  static let loaded: [String: [Double]] = [
    "deferred": [
      387.2, 406.2, 1081.7, 356.4, 403.8, 381.6, 374.7, 390.6, 357.0, 407.6,
      411.0, 357.0, 403.4, 379.1, 339.0, 367.9, 466.1, 332.6, 329.3, 369.1,
      419.7, 349.3, 363.4, 384.7, 369.0, 364.8, 625.3, 363.3, 352.9, 965.8,
      382.6, 454.1, 354.1, 444.7, 352.9, 478.7, 367.8, 443.7, 370.4, 529.0,
      384.2, 464.0, 405.9, 432.7, 408.1, 348.3, 347.8, 711.4, 362.0, 527.0,
      432.9, 352.7, 327.9, 602.4, 348.4, 511.3, 349.1, 409.3, 353.4, 356.4,
    ],
    "eager": [
      1429.0, 1017.1, 1203.1, 1351.7, 960.4, 1031.7, 1508.5, 1126.5, 948.3, 1277.8,
      1040.0, 1144.2, 1114.4, 986.7, 1123.8, 1112.0, 1153.4, 911.9, 959.1, 1274.0,
      1002.4, 1173.4, 995.3, 1324.3, 771.1, 1473.6, 1181.1, 858.5, 1049.0, 1237.5,
      1094.0, 1135.8, 1053.4, 1007.1, 1179.0, 1589.7, 865.7, 1166.9, 1408.7, 1234.1,
      998.7, 1123.0, 1073.6, 1010.4, 957.0, 997.3, 1204.8, 914.2, 961.3, 1043.0,
      863.7, 1561.4, 1123.9, 1006.4, 1112.0, 908.3, 997.7, 1051.9, 960.4, 798.0,
    ],
  ]

  /// How often CI's step fails a cell, sequential (SLOWER, or UNKNOWN with the ratio of medians
  /// beyond 1 + threshold, as `scripts/ab-gate` reads it) and fixed, and the sequential runs used.
  struct StepRates {
    var sequentialFails = 0
    var fixedFails = 0
    var slower = 0
    var totalRuns = 0
    var worstRuns = 0
    var trials = 0
    var meanRuns: Double { Double(totalRuns) / Double(trials) }
  }

  static func rates(_ recorded: [Double], shift: Double, trials: Int, seed: UInt64) -> StepRates {
    let design = Self.design
    var rng = SplitMix64(seed: seed)
    var rates = StepRates()
    func side(_ count: Int, _ factor: Double) -> [Double] {
      (0..<count).map { _ in recorded[rng.nextIndex(below: recorded.count)] * factor }
    }
    for _ in 0..<trials {
      let reference = side(design.maximumRuns, 1)
      let new = side(design.maximumRuns, 1 + shift)
      let outcome = design.run(reference: reference, new: new)
      let ratio =
        Statistics.median(Array(new[..<outcome.runsPerSide]))
        / Statistics.median(Array(reference[..<outcome.runsPerSide]))
      if outcome.verdict == .slower || (outcome.verdict == .unknown && ratio > 1 + design.threshold) {
        rates.sequentialFails += 1
      }
      if outcome.verdict == .slower { rates.slower += 1 }
      rates.totalRuns += outcome.runsPerSide
      rates.worstRuns = max(rates.worstRuns, outcome.runsPerSide)
      let fixedReference = side(fixedRuns, 1)
      let fixedNew = side(fixedRuns, 1 + shift)
      if Statistics.median(fixedNew) / Statistics.median(fixedReference) > 1 + design.threshold {
        rates.fixedFails += 1
      }
      rates.trials += 1
    }
    return rates
  }

  @Test("at the noise CI's step records, the design meets issue 39's goals")
  func quietGoals() {
    for (index, cell) in ["deferred", "eager"].enumerated() {
      let recorded = Self.quiet[cell] ?? []
      let aa = Self.rates(recorded, shift: 0, trials: 200, seed: 3900 + UInt64(index))
      let ten = Self.rates(recorded, shift: 0.10, trials: 200, seed: 3910 + UInt64(index))
      print(
        "\(cell): A/A fails \(aa.sequentialFails)/200 at \(aa.meanRuns) runs; +10 % SLOWER \(ten.slower)/200 at \(ten.meanRuns)"
      )
      #expect(aa.sequentialFails <= 2)
      #expect(Double(ten.slower) >= 0.95 * 200)
      #expect(aa.meanRuns <= 0.6 * Double(Self.fixedRuns))
      #expect(ten.meanRuns <= 0.6 * Double(Self.fixedRuns))
      #expect(Double(max(aa.worstRuns, ten.worstRuns)) <= 1.25 * Double(Self.fixedRuns))
    }
  }

  @Test("at a load's noise, the sequential step fails a healthy commit no more often than the fixed one")
  func loadedAgainstFixed() {
    for (index, cell) in ["deferred", "eager"].enumerated() {
      let recorded = Self.loaded[cell] ?? []
      let aa = Self.rates(recorded, shift: 0, trials: 200, seed: 3920 + UInt64(index))
      let ten = Self.rates(recorded, shift: 0.10, trials: 200, seed: 3930 + UInt64(index))
      print(
        "\(cell): A/A fails sequential \(aa.sequentialFails) fixed \(aa.fixedFails) of 200;"
          + " +10 % caught sequential \(ten.sequentialFails) fixed \(ten.fixedFails)")
      // Neither meets the goals at this noise (a 10 % shift is within a run's noise); the
      // sequential step is no worse than the fixed one, within resampling error.
      #expect(aa.sequentialFails <= aa.fixedFails + 12)
      #expect(ten.sequentialFails + 12 >= ten.fixedFails)
      #expect(aa.worstRuns <= 36)
    }
  }
}
