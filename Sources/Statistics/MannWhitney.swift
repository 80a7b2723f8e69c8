import Foundation

/// The Mann–Whitney U (Wilcoxon rank-sum) test, two-sided, following SciPy's
/// `scipy.stats.mannwhitneyu(x, y, alternative="two-sided", method="auto", use_continuity=True)`
/// exactly, so results can be checked against it:
///
/// - U is the statistic of the **first** sample: U₁ = R₁ − n₁(n₁ + 1)/2 with R₁ the sum of the
///   first sample's mid-ranks (ties share the average rank). U₁ counts the pairs (x, y) with
///   x > y, plus ½ for each tie.
/// - The p-value is computed from U = max(U₁, n₁n₂ − U₁) and doubled, clipped to 1.
/// - **auto**: the exact null distribution when there are no ties and either sample has at most
///   8 values; otherwise the normal approximation with the tie-corrected variance
///   σ² = n₁n₂/12 · ((n + 1) − Σ(t³ − t)/(n(n − 1))) and a continuity correction of ½.
///   (SciPy prefers the approximation whenever there are ties, because the exact distribution
///   assumes none.)
public enum MannWhitney {
  /// How the p-value was computed.
  public enum Method: String, Sendable, Codable {
    /// From the exact permutation distribution of U (no ties).
    case exact
    /// From the normal approximation with tie and continuity corrections.
    case asymptotic
  }

  /// The outcome of one test.
  public struct Result: Sendable, Hashable {
    /// U of the first sample (SciPy's `statistic`).
    public var u: Double
    /// The two-sided p-value.
    public var pValue: Double
    /// How `pValue` was computed.
    public var method: Method
    /// The standardized statistic (with continuity correction) when asymptotic, else nil.
    public var z: Double?
  }

  /// Tests whether `x` and `y` come from the same distribution (two-sided).
  /// - Parameter method: nil for SciPy's `auto` rule; or force `.exact` (only valid without ties;
  ///   ties fall back to asymptotic) or `.asymptotic`.
  /// - Precondition: both samples non-empty and not NaN. `+∞` (a failed run) is allowed: it ranks
  ///   after every finished run, and failed runs tie with each other (so more than one of them
  ///   means ties, and the approximation).
  public static func test(_ x: [Double], _ y: [Double], method: Method? = nil) -> Result {
    precondition(!x.isEmpty && !y.isEmpty, "Mann–Whitney needs two non-empty samples")
    let n1 = x.count
    let n2 = y.count
    let (ranks, tieSizes) = midRanks(x + y)
    let r1 = ranks[0..<n1].reduce(0, +)
    let u1 = r1 - Double(n1) * Double(n1 + 1) / 2
    let u2 = Double(n1) * Double(n2) - u1
    let u = Swift.max(u1, u2)
    let hasTies = tieSizes.contains { $0 > 1 }
    var chosen = method ?? ((n1 > 8 && n2 > 8) || hasTies ? .asymptotic : .exact)
    if chosen == .exact && hasTies { chosen = .asymptotic }

    switch chosen {
    case .exact:
      // u is a whole number without ties.
      let p = 2 * exactSurvival(atLeast: Int(u.rounded()), n1: n1, n2: n2)
      return Result(u: u1, pValue: Swift.min(1, Swift.max(0, p)), method: .exact, z: nil)
    case .asymptotic:
      let z = standardized(u: u, n1: n1, n2: n2, tieSizes: tieSizes)
      let p = z.isNaN ? 1 : 2 * NormalDistribution.survival(z)
      return Result(u: u1, pValue: Swift.min(1, Swift.max(0, p)), method: .asymptotic, z: z)
    }
  }

  /// (U − n₁n₂/2 − ½) / σ with the tie-corrected σ. −∞ when every value is tied (σ = 0).
  ///
  /// In floating point throughout: a tie of t values adds t³ − t, which for t beyond 2 097 151
  /// (a results file with millions of equal samples) does not fit in an Int. Below that every
  /// term is a whole number under 2⁵³, so Double is exact where Int was.
  static func standardized(u: Double, n1: Int, n2: Int, tieSizes: [Int]) -> Double {
    let n = Double(n1) + Double(n2)
    let tieTerm = tieSizes.reduce(0.0) { sum, size in
      let t = Double(size)
      return sum + (t * t * t - t)
    }
    let pairs = Double(n1) * Double(n2)
    let variance = pairs / 12 * ((n + 1) - (n > 1 ? tieTerm / (n * (n - 1)) : 0))
    let numerator = u - pairs / 2 - 0.5
    guard variance > 0 else { return numerator > 0 ? .infinity : -.infinity }
    return numerator / variance.squareRoot()
  }

  /// Mid-ranks (1-based, ties averaged) of `values`, and the sizes of each group of equal values.
  static func midRanks(_ values: [Double]) -> (ranks: [Double], tieSizes: [Int]) {
    let order = values.indices.sorted { values[$0] < values[$1] }
    var ranks = [Double](repeating: 0, count: values.count)
    var tieSizes: [Int] = []
    var i = 0
    while i < order.count {
      var j = i
      while j + 1 < order.count && values[order[j + 1]] == values[order[i]] { j += 1 }
      let rank = Double(i + j) / 2 + 1
      for k in i...j { ranks[order[k]] = rank }
      tieSizes.append(j - i + 1)
      i = j + 1
    }
    return (ranks, tieSizes)
  }

  /// P(U ≥ k) under the null hypothesis without ties, for samples of sizes n1 and n2.
  public static func exactSurvival(atLeast k: Int, n1: Int, n2: Int) -> Double {
    let pmf = exactDistribution(n1: n1, n2: n2)
    guard k > 0 else { return 1 }
    guard k < pmf.count else { return 0 }
    // Sum the smaller tail for accuracy; the distribution is symmetric about n1·n2/2.
    let maxU = n1 * n2
    if k > maxU / 2 {
      return pmf[k...].reduce(0, +)
    } else {
      return 1 - pmf[..<k].reduce(0, +)
    }
  }

  /// The exact null probability mass of U for sizes n1, n2 (index = U, 0…n1·n2).
  ///
  /// The count of arrangements with U = u is the coefficient of qᵘ in the Gaussian binomial
  /// [n1 + n2 choose m]_q = Π_{i=1…m} (1 − q^{N−m+i}) / (1 − q^i) with m = min(n1, n2), built one
  /// factor at a time (each intermediate is itself a Gaussian binomial, so has non-negative
  /// coefficients) and normalized to probabilities after each step to stay within Double range.
  public static func exactDistribution(n1: Int, n2: Int) -> [Double] {
    let m = Swift.min(n1, n2)
    let other = Swift.max(n1, n2)
    let maxU = n1 * n2
    // Room for the intermediate product, whose degree briefly exceeds the final one by i.
    var c = [Double](repeating: 0, count: maxU + m + 2)
    c[0] = 1
    var degree = 0
    for i in stride(from: 1, through: m, by: 1) {
      let up = other + i
      // Multiply by (1 − q^up), in place from the top so each c[k − up] read is still the old one.
      for k in stride(from: degree + up, through: up, by: -1) { c[k] -= c[k - up] }
      // Divide by (1 − q^i): c'[k] = c[k] + c'[k − i], from the bottom.
      let newDegree = degree + other
      for k in stride(from: i, through: newDegree, by: 1) { c[k] += c[k - i] }
      // The quotient is exact: clear the product's leftover high terms.
      for k in stride(from: newDegree + 1, through: degree + up, by: 1) { c[k] = 0 }
      degree = newDegree
      let total = c[0...degree].reduce(0, +)
      for k in 0...degree { c[k] = Swift.max(0, c[k] / total) }
    }
    return Array(c[0...maxU])
  }
}
