import Foundation
import Gates
import Statistics
import TestSupport
import Testing

/// The statistics under the gates with failed runs in the samples as `+∞` (issue 25, item 4):
/// every one gives a number or an honest refusal, never a NaN that reads as a pass or a crash.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct InfiniteSampleTests {
  @Test("a median and percentiles among failed runs are +∞; among finished runs they are the finished value")
  func percentiles() {
    #expect(Statistics.median([1, 2, .infinity]) == 2)
    #expect(Statistics.median([1, .infinity]) == .infinity)
    #expect(Statistics.median([.infinity, .infinity, .infinity]) == .infinity)
    #expect(Statistics.percentile([1, 2, 3, .infinity, .infinity], 0.5) == 3)
    #expect(Statistics.percentile([1, 2, 3, 4, .infinity], 0.9) == .infinity)
    #expect(Statistics.percentile([1, 2, 3, 4, .infinity], 0.75) == 4)
  }

  @Test(
    "Mann–Whitney ranks failed runs as tied and last: the same U and p as any value above every finished run")
  func mannWhitney() {
    let x: [Double] = [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
    let y: [Double] = [12.5, 14.5, 20, 21, .infinity, .infinity, .infinity]
    let stand = y.map { $0.isFinite ? $0 : 1e9 }
    let ranked = MannWhitney.test(x, y)
    let substitute = MannWhitney.test(x, stand)
    #expect(ranked.u == substitute.u && ranked.pValue == substitute.pValue && ranked.method == .asymptotic)
    // One failed run ties with nothing: the exact test still applies.
    let single = MannWhitney.test([1, 2, 3], [4, 5, .infinity])
    #expect(single.method == .exact && single.pValue == MannWhitney.test([1, 2, 3], [4, 5, 6]).pValue)
    #expect(MannWhitney.test([.infinity, .infinity], [.infinity, .infinity]).pValue == 1)
  }

  @Test(
    "the bootstrap of a ratio whose numerator's median can be beyond the timeout gives an infinite upper bound"
  )
  func bootstrap() {
    let denominator: [Double] = [97, 98, 99, 100, 101, 102, 103, 104, 105, 106]
    let numerator: [Double] = [
      95, 96, 97, 98, .infinity, .infinity, .infinity, .infinity, .infinity, .infinity,
    ]
    let ci = Bootstrap.ratioOfMediansInterval(numerator: numerator, denominator: denominator)
    #expect(ci.upper == .infinity && ci.lower.isFinite && ci.lower > 0 && !ci.isRefused, "\(ci)")
    let inverse = Bootstrap.ratioOfMediansInterval(numerator: denominator, denominator: numerator)
    #expect(inverse.lower == 0 && inverse.upper.isFinite, "\(inverse)")
    // Every run failed on both sides: no ratio at all, so the bootstrap refuses.
    let none = Bootstrap.ratioOfMediansInterval(
      numerator: [.infinity, .infinity], denominator: [.infinity, .infinity])
    #expect(none.isRefused, "\(none)")
  }

  @Test(
    "effect sizes: Cliff's delta counts failed runs as the slowest; Hodges–Lehmann pairs two failed runs as no difference"
  )
  func effectSizes() {
    #expect(EffectSize.cliffsDelta([.infinity, .infinity], [1, 2]) == 1)
    #expect(EffectSize.hodgesLehmannShift(from: [1, .infinity], to: [2, .infinity]) == 0.5)
    let allFailed = [Double](repeating: .infinity, count: 10)
    #expect(EffectSize.hodgesLehmannShift(from: allFailed, to: allFailed) == 0)
    #expect(EffectSize.hodgesLehmannShift(from: [1, 2, 3], to: [5, .infinity, .infinity]) == .infinity)
  }

  @Test("a comparison: ratio +∞ and 'slower' when the new median is beyond the timeout, NaN when both are")
  func sampleComparison() {
    let reference = (0..<20).map { 100 + Double($0) }
    let new = (0..<20).map { $0 < 5 ? 100 + Double($0) : Double.infinity }
    let slower = SampleComparison(reference: reference, new: new, threshold: 0.05, alpha: 0.01)
    #expect(slower.ratio == .infinity && slower.verdict == .slower, "\(slower)")
    let both = SampleComparison(reference: new, new: new, threshold: 0.05, alpha: 0.01)
    #expect(both.ratio.isNaN && both.verdict == .notEnoughData, "\(both)")
  }

  @Test("power advice takes the noise from the finished runs only")
  func powerAdvice() {
    let baseline: [Double] = [97, 98, 99, 100, 101, 102, 103, 104, 105, 106]
    let current: [Double] = [
      95, 96, 97, 98, .infinity, .infinity, .infinity, .infinity, .infinity, .infinity,
    ]
    let advice = PowerAdvice(
      phase: "p", baseline: baseline, current: current, alpha: 0.01, thresholdFraction: 0.05)
    let finite = PowerAdvice(
      phase: "p", baseline: baseline, current: [95, 96, 97, 98], alpha: 0.01, thresholdFraction: 0.05)
    #expect(advice.noiseMs == finite.noiseMs && advice.noiseMs.isFinite, "\(advice)")
    #expect(advice.runs == 10)
  }
}
