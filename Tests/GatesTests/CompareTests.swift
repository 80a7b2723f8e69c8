import Foundation
import Gates
import LaunchContract
import ResultsSchema
import Sampling
import TestSupport
import Testing

@Suite struct CompareTests {
  @Test("within-run comparisons pair deferred with eager in every condition and find deferred faster")
  func withinRun() {
    let results = SyntheticResults.make(comparisons: true)
    let ffo = results.comparisons.filter { $0.phase == PhaseName.firstFrameObserved }
    #expect(ffo.count == 4)
    for c in ffo {
      #expect(c.a == "deferred" && c.b == "eager")
      #expect(c.ratioP50 < 0.6 && c.ratioP50 > 0.35)
      #expect(c.ci95.count == 2 && c.ci95[0] <= c.ratioP50 && c.ratioP50 <= c.ci95[1])
      #expect(c.pValue < 1e-6)
      #expect(c.verdict == "faster")
    }
  }

  @Test("the headline says how many times sooner deferred reaches the first frame")
  func headline() {
    let c = BenchResults.Comparison(
      phase: PhaseName.firstFrameObserved, condition: "cold", a: "deferred", b: "eager", ratioP50: 1 / 2.1,
      ci95: [0.45, 0.5], pValue: 1e-5, verdict: "faster")
    #expect(Comparator.headline(for: c) == "deferred reaches the first frame 2.1× sooner than eager (cold)")
    var slower = c
    slower.ratioP50 = 1.3
    slower.verdict = "slower"
    #expect(
      Comparator.headline(for: slower) == "eager reaches the first frame 23 % sooner than deferred (cold)")
    var same = c
    same.ratioP50 = 0.99
    same.pValue = 0.41
    same.verdict = "no significant difference"
    #expect(Comparator.headline(for: same)?.contains("equally soon within noise") == true)
    #expect(Comparator.headlines(SyntheticResults.make()).count == 4)
  }

  @Test("compare reports B vs A for every matched cell and phase, with a verdict")
  func compareFiles() {
    let a = SyntheticResults.make(seed: 1)
    let b = SyntheticResults.make(seed: 2, scale: 1.25)
    let comparisons = Comparator.compare(a, b)
    #expect(comparisons.count > 8)
    let ffo = comparisons.filter { $0.phase == PhaseName.firstFrameObserved }
    #expect(ffo.count == 8)
    for c in ffo {
      #expect(c.result.ratio > 1.1, "\(c.cellName) \(c.result.ratio)")
      #expect(c.result.verdict == .slower)
    }
    let same = Comparator.compare(a, a).filter { $0.phase == PhaseName.firstFrameObserved }
    #expect(same.allSatisfy { $0.result.verdict == .noSignificantDifference && $0.result.ratio == 1 })
  }

  @Test("A/A: 200 pairs of 10-run samples from one skewed distribution raise at most 5 % false alarms")
  func aaFalseAlarms() {
    var rng = SplitMix64(seed: 2026)
    var alarms = 0
    let pairs = 200
    for _ in 0..<pairs {
      let a = SyntheticResults.launchTimes(10, median: 250, sigma: 0.08, rng: &rng)
      let b = SyntheticResults.launchTimes(10, median: 250, sigma: 0.08, rng: &rng)
      if gateFails(baseline: a, current: b) { alarms += 1 }
    }
    #expect(Double(alarms) / Double(pairs) <= 0.05, "false alarms \(alarms)/\(pairs)")
  }

  @Test("a 60 ms shift on a 250 ms median with realistic noise is caught at 10 runs")
  func shiftIsCaught() {
    var rng = SplitMix64(seed: 7)
    var caught = 0
    let pairs = 200
    for _ in 0..<pairs {
      let a = SyntheticResults.launchTimes(10, median: 250, sigma: 0.08, rng: &rng)
      let b = SyntheticResults.launchTimes(10, median: 250, sigma: 0.08, rng: &rng).map { $0 + 60 }
      if gateFails(baseline: a, current: b) { caught += 1 }
    }
    #expect(Double(caught) / Double(pairs) >= 0.9, "caught \(caught)/\(pairs)")
  }

  /// Runs the real baseline gate on one cell made from the two samples, and says whether it
  /// found a regression (`fail`: slower beyond the threshold and significant). An inconclusive
  /// check is not counted here: these tests measure the significance rule, as `GatePower` does;
  /// under `--inconclusive fail` a 10-run A/A comparison also fails whenever it is slower than
  /// the threshold by chance, which is what CI's run counts must make rare.
  func gateFails(baseline: [Double], current: [Double]) -> Bool {
    func results(_ s: [Double]) -> BenchResults {
      var r = SyntheticResults.make(configs: ["deferred"], conditions: ["cold"], runs: 2)
      r.cells[0].phases = [:]
      r.cells[0].setSamples(s, for: PhaseName.firstFrameObserved)
      return r
    }
    var report = Gate.checkBaseline(
      results(current), against: results(baseline), options: .init(resamples: 2000))
    report.inconclusive = .pass
    return !report.passed
  }
}
