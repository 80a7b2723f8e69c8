import Foundation

/// How small a regression a rank test at this many runs can reliably catch, given the noise.
///
/// Method: the normal approximation of the Mann–Whitney test's power for a location shift.
/// With σ the pooled robust standard deviation of the two samples (1.4826·MAD each, falling back
/// to the sample standard deviation when a MAD is 0), the smallest shift detected with
/// probability `power` at two-sided level α is
///
///     Δ = (z₁₋α/₂ + z_power) · σ · √(1/n₁ + 1/n₂) · √(π/3)
///
/// where √(π/3) converts the t-test's answer to the rank test's (its asymptotic relative
/// efficiency for normal data is 3/π). Launch times are skewed, so read Δ as a guide (a
/// simulation test checks it lands near power 0.8 for normal noise).
///
/// Separately, a rank test has a smallest achievable p-value that depends only on the run counts:
/// 2/C(n₁ + n₂, n₁) for the exact test (e.g. 0.1 with 3 + 3 runs) and 2·Φ(−z_max) for the
/// approximation. When that is not below α the test cannot flag anything, whatever the data.
public struct PowerAdvice: Sendable, Hashable, Codable {
  /// The phase this is about.
  public var phase: String
  /// Runs in the baseline (or first) sample.
  public var baselineRuns: Int
  /// Runs in the new sample.
  public var runs: Int
  /// Two-sided significance level.
  public var alpha: Double
  /// The wanted probability of catching a real shift.
  public var power: Double
  /// The pooled robust standard deviation, ms.
  public var noiseMs: Double
  /// The smallest shift caught with probability `power`, ms.
  public var detectableShiftMs: Double
  /// The same as a fraction of the baseline median (0.07 = 7 %).
  public var detectableFraction: Double
  /// The smallest p-value these run counts allow.
  public var smallestPossibleP: Double
  /// The fewest runs per side (equal sizes) for which the test can reach p < alpha at all.
  public var runsNeededForAlpha: Int
  /// The runs per side (equal sizes) needed to catch a shift of `thresholdFraction` at `power`,
  /// when a threshold was given.
  public var runsNeededForThreshold: Int?
  /// The gate's threshold, as a fraction, when given.
  public var thresholdFraction: Double?

  /// Computes the advice for `baseline` (ms) against `current` (ms). Failed runs (`+∞`) count in
  /// the run counts; the noise σ and the baseline median come from the finished runs only.
  public init(
    phase: String, baseline: [Double], current: [Double], alpha: Double, power: Double = 0.8,
    thresholdFraction: Double? = nil
  ) {
    self.phase = phase
    self.baselineRuns = baseline.count
    self.runs = current.count
    self.alpha = alpha
    self.power = power
    self.thresholdFraction = thresholdFraction
    // Failed runs (+∞) count as runs but carry no noise: σ and the median come from the
    // finished runs.
    let finiteBaseline = baseline.filter(\.isFinite)
    let finiteCurrent = current.filter(\.isFinite)
    let sa = finiteBaseline.isEmpty ? 0 : Statistics.robustStandardDeviation(finiteBaseline)
    let sb = finiteCurrent.isEmpty ? 0 : Statistics.robustStandardDeviation(finiteCurrent)
    let sigma = ((sa * sa + sb * sb) / 2).squareRoot()
    noiseMs = sigma
    let zSum = NormalDistribution.quantile(1 - alpha / 2) + NormalDistribution.quantile(power)
    let arePenalty = (Double.pi / 3).squareRoot()
    if baseline.isEmpty || current.isEmpty {
      detectableShiftMs = .infinity
      detectableFraction = .infinity
    } else {
      detectableShiftMs =
        zSum * sigma * (1 / Double(baseline.count) + 1 / Double(current.count)).squareRoot() * arePenalty
      let median = Statistics.median(finiteBaseline)
      detectableFraction = median > 0 ? detectableShiftMs / median : .infinity
    }
    smallestPossibleP = PowerAdvice.smallestPossibleP(n1: baseline.count, n2: current.count)
    var needed = 2
    while needed < 1000 && PowerAdvice.smallestPossibleP(n1: needed, n2: needed) >= alpha { needed += 1 }
    runsNeededForAlpha = needed
    if let thresholdFraction, thresholdFraction > 0, !finiteBaseline.isEmpty {
      let median = Statistics.median(finiteBaseline)
      let shift = thresholdFraction * median
      if sigma > 0 && shift > 0 {
        let perSide = 2 * pow(zSum * sigma * arePenalty / shift, 2)
        runsNeededForThreshold = Swift.max(runsNeededForAlpha, Int(perSide.rounded(.up)))
      } else {
        runsNeededForThreshold = runsNeededForAlpha
      }
    } else {
      runsNeededForThreshold = nil
    }
  }

  /// The smallest two-sided p-value a Mann–Whitney test (SciPy's auto method, assuming no
  /// ties) can return for these sample sizes: complete separation of the samples.
  public static func smallestPossibleP(n1: Int, n2: Int) -> Double {
    guard n1 > 0, n2 > 0 else { return 1 }
    if n1 <= 8 || n2 <= 8 {
      // 2 / C(n1 + n2, n1), computed in logs.
      let logC = lgamma(Double(n1 + n2 + 1)) - lgamma(Double(n1 + 1)) - lgamma(Double(n2 + 1))
      return Swift.min(1, 2 * exp(-logC))
    }
    let z = MannWhitney.standardized(u: Double(n1 * n2), n1: n1, n2: n2, tieSizes: [])
    return Swift.min(1, 2 * NormalDistribution.survival(z))
  }

  /// True when the test cannot reach p < alpha at these run counts, whatever the data.
  public var cannotReachAlpha: Bool { smallestPossibleP >= alpha }

  /// A warning for people, or nil when the runs are enough.
  public var warning: String? {
    if cannotReachAlpha {
      return
        "\(phase): with \(baselineRuns) and \(runs) runs the rank test cannot reach p < \(Self.formatAlpha(alpha))"
        + " (smallest possible p = \(String(format: "%.3g", smallestPossibleP))); use at least"
        + " \(runsNeededForAlpha) runs per side"
    }
    if let thresholdFraction, let needed = runsNeededForThreshold, detectableFraction > thresholdFraction,
      Swift.min(baselineRuns, runs) < needed
    {
      return "\(phase): at \(Swift.min(baselineRuns, runs)) runs only regressions of about"
        + " \(String(format: "%.1f", detectableFraction * 100)) % or more are reliably caught (threshold"
        + " \(String(format: "%.1f", thresholdFraction * 100)) %); about \(needed) runs per side would catch the threshold"
    }
    return nil
  }

  /// One line for people: the smallest regression caught, and the noise it comes from.
  public var summary: String {
    guard detectableShiftMs.isFinite else { return "\(phase): no samples to advise on" }
    return "\(phase): smallest regression caught with power \(String(format: "%.0f", power * 100)) % at α = "
      + "\(Self.formatAlpha(alpha)): \(String(format: "%.1f", detectableFraction * 100)) % ("
      + "\(String(format: "%.1f", detectableShiftMs)) ms; noise σ ≈ \(String(format: "%.1f", noiseMs)) ms, "
      + "\(baselineRuns) vs \(runs) runs)"
  }

  package static func formatAlpha(_ alpha: Double) -> String {
    var s = String(format: "%.4f", alpha)
    while s.hasSuffix("0") { s.removeLast() }
    if s.hasSuffix(".") { s.removeLast() }
    return s
  }
}
