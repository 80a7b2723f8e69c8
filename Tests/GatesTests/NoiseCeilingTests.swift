import LaunchContract
import ResultsSchema
import Statistics
import TestSupport
import Testing
@testable import Gates
@testable import RunAnalysis

/// The noise ceiling (`bench gate --noise-ceiling`): where a cell is noisier than it, an
/// inconclusive time check does not fail; a significant slowdown still does.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct NoiseCeilingTests {
  static func cell(_ median: Double, noise: Double, runs: Int, seed: UInt64) -> BenchResults {
    SyntheticResults.gaussian(
      [SyntheticResults.GaussianCell(config: "eager", medianMs: median, noise: noise)], runs: runs, seed: seed
    )
  }

  static func check(_ new: BenchResults, _ base: BenchResults, ceiling: Double?) -> GateOutcome {
    var options = Gate.BaselineOptions()
    options.qualityCounts = []
    options.noiseCeiling = ceiling
    let report = Gate.checkBaseline(new, against: base, options: options)
    return report.outcomes.first { $0.phase == PhaseName.firstFrameObserved && $0.kind == .baseline }!
  }

  @Test(
    "above the ceiling an inconclusive slowdown is skipped, named as not gated to the threshold; below it, or without one, it stays inconclusive"
  )
  func inconclusiveAboveTheCeiling() {
    // 8 % noise, 6 runs a side, 8 % slower: beyond the threshold, not significant.
    let base = Self.cell(1500, noise: 0.08, runs: 6, seed: 21)
    let new = Self.cell(1500 * 1.08, noise: 0.08, runs: 6, seed: 22)
    let plain = Self.check(new, base, ceiling: nil)
    #expect(plain.status == .inconclusive, "\(plain.message)")
    let noisy = Self.check(new, base, ceiling: 0.04)
    #expect(noisy.status == .skipped)
    #expect(noisy.message.contains("above the 4 % noise ceiling"), "\(noisy.message)")
    #expect(!Gate.fails(noisy.status, inconclusive: .fail))
    // A ceiling above the cell's noise changes nothing.
    #expect(Self.check(new, base, ceiling: 0.5).status == .inconclusive)
  }

  @Test("a significant slowdown fails above the ceiling too; a cell within the threshold passes")
  func significantStillFails() {
    let base = Self.cell(1500, noise: 0.08, runs: 30, seed: 23)
    let slower = Self.cell(1500 * 1.3, noise: 0.08, runs: 30, seed: 24)
    #expect(Self.check(slower, base, ceiling: 0.04).status == .fail)
    let same = Self.cell(1500, noise: 0.08, runs: 30, seed: 25)
    let outcome = Self.check(same, base, ceiling: 0.04)
    #expect(outcome.status == .pass || outcome.status == .skipped)
  }

  @Test(
    "the noise is 1.4826 × MAD over the median of the finished runs; either side above the ceiling counts")
  func noiseMeasure() {
    #expect(Gate.noise([100, 100, 100]) == 0)
    #expect(Gate.noise([.infinity]).isNaN)
    let n = Gate.noise([90, 100, 110, .infinity])
    #expect(abs(n - 1.4826 * 10 / 100) < 1e-9)
    #expect(Gate.aboveNoiseCeiling(0.04, reference: [100, 100, 100], new: [90, 100, 110]))
    #expect(!Gate.aboveNoiseCeiling(0.04, reference: [100, 100, 100], new: [100, 101, 100]))
    #expect(!Gate.aboveNoiseCeiling(nil, reference: [90, 100, 110], new: [90, 100, 110]))
  }

  @Test("bench power measures the ceiling's rule: fewer false alarms in a noisy cell, a quiet one unchanged")
  func measuredRule() {
    let noisy = SyntheticResults.gaussian(
      [
        SyntheticResults.GaussianCell(config: "eager", medianMs: 1500, noise: 0.08),
        SyntheticResults.GaussianCell(config: "deferred", medianMs: 400, noise: 0.01),
      ], runs: 20, seed: 26)
    var ceiling = Gate.BaselineOptions()
    ceiling.noiseCeiling = 0.04
    let without = GatePower.measure(noisy, runsPerSide: 5, comparisonsPerCell: 300, shifts: [0.5])
    let with = GatePower.measure(
      noisy, runsPerSide: 5, comparisonsPerCell: 300, shifts: [0.5], options: ceiling)
    #expect(with.noiseCeiling == 0.04 && without.noiseCeiling == nil)
    let eager = { (r: GatePower.Report) in r.cells.first { $0.cell.hasSuffix("eager") }! }
    let deferred = { (r: GatePower.Report) in r.cells.first { $0.cell.hasSuffix("deferred") }! }
    #expect(eager(without).aaFalseAlarms > 0)
    #expect(eager(with).aaFalseAlarms < eager(without).aaFalseAlarms)
    #expect(deferred(with) == deferred(without))
  }
}

extension NoiseCeilingTests {
  @Test(
    "above the ceiling a slowdown must be significant at α divided by the results' cells: p between α/12 and α is skipped among 12 cells, fails alone"
  )
  func splitAlphaAboveTheCeiling() throws {
    // 12 runs a side, 8 % noise (evenly spread quantiles), the new side 12 % slower.
    let z: [Double] = [-1.73, -1.15, -0.81, -0.55, -0.32, -0.1, 0.1, 0.32, 0.55, 0.81, 1.15, 1.73]
    let reference = z.map { 1500 * (1 + 0.08 * $0) }
    let new = reference.map { $0 * 1.12 }
    let p = MannWhitney.test(reference, new).pValue
    try #require(p > 0.01 / 12 && p < 0.01, "p = \(p)")
    let results = Self.cell(1500, noise: 0.08, runs: 12, seed: 27)
    let counts = (cell: results.cells[0], base: results.cells[0])
    var options = Gate.BaselineOptions()
    options.noiseCeiling = 0.04
    #expect(options.noisyAlpha(cells: 12) == 0.01 / 12)
    func status(cells: Int, _ options: Gate.BaselineOptions) -> GateOutcome {
      Gate.compare(
        reference, new, name: "t", phase: PhaseName.firstFrameObserved, counts: counts, cells: cells, seed: 1,
        options: options
      ).outcomes[0]
    }
    let alone = status(cells: 1, options)
    #expect(alone.status == .fail && alone.message.contains("α / 1 cells"), "\(alone.message)")
    let among = status(cells: 12, options)
    #expect(among.status == .skipped && among.message.contains("α / 12 cells = "), "\(among.message)")
    // Without a ceiling, or below it, α decides as before.
    #expect(status(cells: 12, Gate.BaselineOptions()).status == .fail)
    let rule = GatePower.Rule(
      threshold: 0.05, alpha: 0.01, inconclusive: .fail, noiseCeiling: 0.04, noisyAlpha: 0.01 / 12)
    #expect(!rule.fails(baseline: reference, new: new))
    #expect(
      GatePower.Rule(threshold: 0.05, alpha: 0.01, inconclusive: .fail).fails(baseline: reference, new: new))
  }
}
