import Sampling
import Statistics
import TestSupport
import Testing

/// Results and baseline files can hold millions of runs of one phase: the rank test and the
/// effect sizes must neither overflow nor allocate n₁ × n₂ values.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct LargeSampleTests {
  @Test("the Mann–Whitney tie term takes a tie of 2.2 million values (t³ beyond Int) and gives the exact p")
  func mannWhitneyHugeTie() {
    // x: 1.1 million ones and a 0; y: 1.1 million ones and a 2. One tie group of 2 200 000
    // values: t³ − t ≈ 1.06e19 does not fit in an Int.
    let m = 1_100_000
    let x = [Double](repeating: 1, count: m) + [0]
    let y = [Double](repeating: 1, count: m) + [2]
    let r = MannWhitney.test(x, y)
    #expect(r.method == .asymptotic)
    #expect(r.u == 605_000_000_000)
    // Computed independently in exact rational arithmetic (Python `fractions`, `mpmath` at 30
    // digits): z = 1.41421259813726920654…, p = 0.157299490078113560232…
    #expect(abs((r.z ?? .nan) - 1.414_212_598_137_269_2) < 1e-9, "z \(String(describing: r.z))")
    #expect(abs(r.pValue - 0.157_299_490_078_113_56) < 1e-9, "p \(r.pValue)")
  }

  @Test("the Hodges–Lehmann shift of 100 000 runs against 100 000 is found without 10¹⁰ differences")
  func hodgesLehmannLarge() {
    // (10¹⁰ differences would be 80 GB; 100 000 a side keeps the debug build's test short.)
    let a = (0..<100_000).map(Double.init)
    let b = a.map { $0 + 0.5 }
    // The differences b_j − a_i = 0.5 + (j − i) are symmetric about 0.5.
    #expect(EffectSize.hodgesLehmannShift(from: a, to: b) == 0.5)
    #expect(EffectSize.hodgesLehmannShift(from: b, to: a) == -0.5)
  }

  @Test("Cliff's delta of 200 000 runs against 200 000 is found without visiting 4·10¹⁰ pairs")
  func cliffsDeltaLarge() {
    let n = 200_000
    let a = (0..<n).map(Double.init)
    let b = a.map { $0 + 0.5 }
    // b_j > a_i exactly when j ≥ i: n(n+1)/2 pairs against n(n−1)/2, so δ = n / n² = 1/n.
    #expect(EffectSize.cliffsDelta(b, a) == 1 / Double(n))
    #expect(EffectSize.cliffsDelta(a, b) == -1 / Double(n))
  }

  /// The definitions, pair by pair: the reference the fast forms must equal exactly.
  static func bruteForce(_ a: [Double], _ b: [Double]) -> (delta: Double, shift: Double) {
    var greater = 0
    var less = 0
    var differences: [Double] = []
    for x in a {
      for y in b {
        if x > y { greater += 1 } else if x < y { less += 1 }
        differences.append(y - x)
      }
    }
    // The median of every difference, as `Statistics.median` defines it (type 7: an even count's
    // two middle values interpolated as low + 0.5 · (high − low), which can differ from
    // (low + high) / 2 in the last bit).
    return (Double(greater - less) / Double(a.count * b.count), Statistics.median(differences))
  }

  @Test(
    "the reference interpolates an even count's two middle differences as Statistics.median does, so it agrees with the fast form to the last bit"
  )
  func referenceInterpolatesAsMedian() {
    // Two differences whose midpoint (x + y) / 2 and x + (y − x) / 2 differ by one ulp: the
    // random test below failed once on such a pair (seen in the full suite).
    let a = [0.0]
    let b = [34.877068943082136, 171.5501994026259]
    #expect(Self.bruteForce(a, b).shift == EffectSize.hodgesLehmannShift(from: a, to: b))
    #expect(Self.bruteForce(a, b).shift == Statistics.median(b))
  }

  @Test(
    "Cliff's delta and the Hodges–Lehmann shift equal their pair-by-pair definitions exactly, ties included")
  func effectSizesEqualDefinitions() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("LargeSampleTests.effectSizesEqualDefinitions seed \(seed)")
    var rng = SplitMix64(seed: seed)
    for trial in 0..<300 {
      let n1 = 1 + rng.nextIndex(below: 40)
      let n2 = 1 + rng.nextIndex(below: 40)
      // Few distinct values (many ties) on odd trials, durations with decimals on even ones.
      let levels = trial % 2 == 1 ? 1 + rng.nextIndex(below: 6) : 0
      func draw() -> Double {
        levels > 0 ? Double(rng.nextIndex(below: levels)) * 2.5 : 100 + 50 * rng.nextGaussian()
      }
      let a = (0..<n1).map { _ in draw() }
      let b = (0..<n2).map { _ in draw() }
      let expected = Self.bruteForce(a, b)
      #expect(EffectSize.cliffsDelta(a, b) == expected.delta, "seed \(seed) trial \(trial): \(a) vs \(b)")
      #expect(
        EffectSize.hodgesLehmannShift(from: a, to: b) == expected.shift,
        "seed \(seed) trial \(trial): \(a) vs \(b)")
    }
  }
}
