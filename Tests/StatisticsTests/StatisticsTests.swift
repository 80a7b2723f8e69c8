import Foundation
import RunAnalysis
import Sampling
import Statistics
import TestSupport
import Testing

@Suite struct StatisticsTests {
  @Test("percentiles interpolate linearly between closest ranks, like NumPy's default")
  func percentiles() {
    let s: [Double] = [1, 2, 3, 4]
    #expect(Statistics.percentile(s, 0.5) == 2.5)
    #expect(Statistics.percentile(s, 0) == 1)
    #expect(Statistics.percentile(s, 1) == 4)
    #expect(abs(Statistics.percentile(s, 0.9) - 3.7) < 1e-12)
    #expect(Statistics.percentile([7], 0.99) == 7)
    #expect(Statistics.percentile([], 0.5).isNaN)
  }

  @Test("summaries match NumPy's percentiles, mean, standard deviation and the MAD outlier rule")
  func summariesMatchReference() throws {
    let ref = try StatsReference.load()
    for c in ref.summaries {
      let s = Statistics.summarize(c.samples)
      #expect(s.n == c.samples.count, "\(c.name)")
      #expect(abs(s.p50 - c.p50) < 1e-9, "\(c.name)")
      #expect(abs(s.p90 - c.p90) < 1e-9, "\(c.name)")
      #expect(abs(s.p99 - c.p99) < 1e-9, "\(c.name)")
      #expect(abs(s.mean - c.mean) < 1e-9, "\(c.name)")
      #expect(abs(s.stddev - c.stddev) < 1e-9, "\(c.name)")
      #expect(s.outliers == c.outliers, "\(c.name)")
      #expect(s.samples == c.samples, "samples are kept in run order")
    }
  }

  @Test("an empty sample summarizes to zeros, never NaN")
  func emptySummary() {
    let s = Statistics.summarize([])
    #expect(s.n == 0 && s.p50 == 0 && s.samples.isEmpty)
    #expect(Statistics.summarize([.nan, 3]).n == 1)
  }

  @Test("Mann–Whitney U and p match SciPy's mannwhitneyu to 1e-6")
  func mannWhitneyMatchesSciPy() throws {
    let ref = try StatsReference.load()
    #expect(ref.mann_whitney.count >= 10)
    for c in ref.mann_whitney {
      let method: MannWhitney.Method? = c.method == "auto" ? nil : MannWhitney.Method(rawValue: c.method)
      let r = MannWhitney.test(c.x, c.y, method: method)
      #expect(abs(r.u - c.u) < 1e-6, "\(c.name): U \(r.u) vs SciPy \(c.u)")
      #expect(abs(r.pValue - c.p) < 1e-6, "\(c.name): p \(r.pValue) vs SciPy \(c.p)")
    }
  }

  @Test("the auto method is exact for small samples without ties and asymptotic otherwise")
  func methodChoice() {
    #expect(MannWhitney.test([1, 2, 3], [4, 5, 6]).method == .exact)
    #expect(MannWhitney.test([1, 2, 2], [4, 5, 6]).method == .asymptotic)
    let big = (0..<9).map(Double.init)
    #expect(MannWhitney.test(big, big.map { $0 + 0.5 }).method == .asymptotic)
  }

  @Test("the exact null distribution of U sums to one and is symmetric")
  func exactDistribution() {
    for (m, n) in [(1, 1), (3, 5), (8, 8), (4, 20), (12, 15)] {
      let pmf = MannWhitney.exactDistribution(n1: m, n2: n)
      #expect(pmf.count == m * n + 1)
      #expect(abs(pmf.reduce(0, +) - 1) < 1e-12)
      for k in pmf.indices { #expect(abs(pmf[k] - pmf[m * n - k]) < 1e-12) }
    }
    // C(6,3) = 20 arrangements; U = 0 happens once.
    #expect(abs(MannWhitney.exactDistribution(n1: 3, n2: 3)[0] - 1.0 / 20) < 1e-15)
  }

  @Test(
    "the bootstrap CI of the ratio of medians agrees with SciPy's percentile bootstrap within Monte-Carlo tolerance"
  )
  func bootstrapMatchesSciPy() throws {
    let ref = try StatsReference.load()
    for c in ref.bootstrap {
      let ci = Bootstrap.ratioOfMediansInterval(numerator: c.b, denominator: c.a, resamples: c.resamples)
      #expect(
        abs(ci.lower - c.ci_low) <= c.tolerance_low,
        "\(c.name): lower \(ci.lower) vs \(c.ci_low) ± \(c.tolerance_low)")
      #expect(
        abs(ci.upper - c.ci_high) <= c.tolerance_high,
        "\(c.name): upper \(ci.upper) vs \(c.ci_high) ± \(c.tolerance_high)")
      #expect(ci.contains(c.ratio))
    }
  }

  @Test("the bootstrap is reproducible from its seed and changes with it")
  func bootstrapSeeded() {
    var rng = SplitMix64(seed: 1)
    let a = SyntheticResults.launchTimes(12, median: 250, rng: &rng)
    let b = SyntheticResults.launchTimes(12, median: 260, rng: &rng)
    let x = Bootstrap.ratioOfMediansInterval(numerator: b, denominator: a, seed: 7)
    let y = Bootstrap.ratioOfMediansInterval(numerator: b, denominator: a, seed: 7)
    let z = Bootstrap.ratioOfMediansReplicates(numerator: b, denominator: a, seed: 8)
    #expect(x == y)
    #expect(z != Bootstrap.ratioOfMediansReplicates(numerator: b, denominator: a, seed: 7))
  }

  @Test("each bootstrap replicate is the ratio of the resampled medians, drawn index by index (seed printed)")
  func bootstrapMatchesSortingEachResample() {
    // The reference: draw n indices with replacement per sample (numerator first), sort each
    // resample, take its median — what the percentile bootstrap says, done the slow way.
    func reference(_ num: [Double], _ den: [Double], resamples: Int, seed: UInt64) -> [Double] {
      var rng = SplitMix64(seed: seed)
      func median(_ x: [Double]) -> Double {
        let s = x.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
      }
      var out: [Double] = []
      for _ in 0..<resamples {
        let a = num.indices.map { _ in num[rng.nextIndex(below: num.count)] }
        let b = den.indices.map { _ in den[rng.nextIndex(below: den.count)] }
        let r = median(a) / median(b)
        if r.isFinite { out.append(r) }
      }
      return out.sorted()
    }
    let seed: UInt64 = 20_261_201
    print("bootstrap replicate check: seed \(seed)")
    var rng = SplitMix64(seed: seed)
    for size in [1, 2, 3, 4, 7, 10, 20, 33, 64, 65, 200] {
      // Ties included: values on a coarse grid, as refresh-quantised launch times are.
      let num = (0..<size).map { _ in (100 + 50 * rng.nextUnit()).rounded() }
      let den = (0..<(size + 3)).map { _ in (120 + 50 * rng.nextUnit()).rounded() }
      let s = rng.next()
      #expect(
        Bootstrap.ratioOfMediansReplicates(numerator: num, denominator: den, resamples: 300, seed: s)
          == reference(num, den, resamples: 300, seed: s), "n = \(size)")
    }
  }

  @Test(
    "the Hodges–Lehmann shift is the median of every pairwise difference, without listing them (seed printed)"
  )
  func hodgesLehmannMatchesEveryDifference() {
    let seed: UInt64 = 11_202_612
    print("Hodges–Lehmann check: seed \(seed)")
    var rng = SplitMix64(seed: seed)
    for (n, m) in [(1, 1), (1, 2), (2, 2), (3, 5), (8, 8), (13, 21), (40, 37), (101, 60)] {
      for grid in [1.0, 0.001] {
        // Ties on a coarse grid; distinct values on a fine one; a few negative values too.
        let a = (0..<n).map { _ in ((rng.nextUnit() * 300 - 20) / grid).rounded() * grid }
        let b = (0..<m).map { _ in ((rng.nextUnit() * 300 - 10) / grid).rounded() * grid }
        var diffs: [Double] = []
        for x in a { for y in b { diffs.append(y - x) } }
        #expect(
          EffectSize.hodgesLehmannShift(from: a, to: b) == Statistics.median(diffs), "n = \(n), m = \(m)")
      }
    }
  }

  @Test("Cliff's delta and the Hodges–Lehmann shift have the documented signs")
  func effectSizes() {
    #expect(EffectSize.cliffsDelta([1, 2, 3], [4, 5, 6]) == -1)
    #expect(EffectSize.cliffsDelta([4, 5, 6], [1, 2, 3]) == 1)
    #expect(EffectSize.cliffsDelta([1, 2], [1, 2]) == 0)
    #expect(EffectSize.hodgesLehmannShift(from: [10, 11, 12], to: [20, 21, 22]) == 10)
    // Cliff's delta equals the rank-biserial correlation from U.
    let x: [Double] = [3, 9, 4, 7, 1]
    let y: [Double] = [5, 8, 2, 6, 10, 11]
    let u = MannWhitney.test(x, y).u
    #expect(abs(EffectSize.cliffsDelta(x, y) - (2 * u / 30 - 1)) < 1e-12)
  }

  @Test("the normal quantile inverts the CDF")
  func normalQuantile() {
    for p in [1e-9, 0.005, 0.025, 0.2, 0.5, 0.8, 0.975, 0.995] {
      #expect(abs(NormalDistribution.cdf(NormalDistribution.quantile(p)) - p) < 1e-12 * max(1, p * 1e3))
    }
    #expect(abs(NormalDistribution.quantile(0.975) - 1.959963984540054) < 1e-9)
  }

  @Test("power advice warns that 3 runs per side cannot reach p < 0.01 and says how many can")
  func powerAdviceFewRuns() {
    let a: [Double] = [250, 255, 248]
    let b: [Double] = [300, 310, 305]
    let advice = PowerAdvice(phase: "first_frame_observed", baseline: a, current: b, alpha: 0.01)
    #expect(advice.cannotReachAlpha)
    #expect(abs(advice.smallestPossibleP - 0.1) < 1e-12)
    #expect(advice.runsNeededForAlpha == 5)
    #expect(advice.warning?.contains("cannot reach p < 0.01") == true)
    // And indeed: complete separation at 3 + 3 gives p = 0.1.
    #expect(abs(MannWhitney.test(a, b).pValue - 0.1) < 1e-12)
  }

  @Test("the predicted detectable shift is caught about 80 % of the time in simulation")
  func powerAdviceMatchesSimulation() {
    var rng = SplitMix64(seed: 99)
    let n = 10
    let sigma = 20.0
    let sampleA = (0..<400).map { _ in 250 + sigma * rng.nextGaussian() }
    let sampleB = (0..<400).map { _ in 250 + sigma * rng.nextGaussian() }
    let advice = PowerAdvice(
      phase: "x", baseline: Array(sampleA.prefix(n)), current: Array(sampleB.prefix(n)), alpha: 0.01)
    // Use the noise the advice would see on large samples, at n = 10 per side.
    let big = PowerAdvice(phase: "x", baseline: sampleA, current: sampleB, alpha: 0.01)
    let shift =
      big.noiseMs * (NormalDistribution.quantile(0.995) + NormalDistribution.quantile(0.8))
      * (2.0 / Double(n)).squareRoot() * (Double.pi / 3).squareRoot()
    #expect(advice.detectableShiftMs > 0)
    var caught = 0
    let reps = 400
    for _ in 0..<reps {
      let x = (0..<n).map { _ in 250 + sigma * rng.nextGaussian() }
      let y = (0..<n).map { _ in 250 + shift + sigma * rng.nextGaussian() }
      if MannWhitney.test(x, y).pValue < 0.01 { caught += 1 }
    }
    let power = Double(caught) / Double(reps)
    #expect(power > 0.6 && power < 0.95, "simulated power \(power) at the predicted shift \(shift) ms")
  }
}
