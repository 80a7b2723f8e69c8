import Sampling
import Statistics

/// Settings of a comparison.
public struct ComparisonOptions: Sendable, Hashable {
  /// Noise threshold as a fraction (0.02 = 2 %): smaller differences are "no significant difference".
  public var threshold: Double
  /// Significance level of the two-sided rank test.
  public var alpha: Double
  /// Bootstrap resamples for the CI (≥ 2000).
  public var resamples: Int
  /// Bootstrap seed; each comparison mixes in its own names, so results do not depend on order.
  public var seed: UInt64
  /// Only these phases, or all phases when nil.
  public var phases: [String]?

  /// Creates options; the defaults are `bench compare`'s.
  public init(
    threshold: Double = 0.02, alpha: Double = 0.05, resamples: Int = Bootstrap.defaultResamples,
    seed: UInt64 = Bootstrap.defaultSeed, phases: [String]? = nil
  ) {
    self.threshold = threshold
    self.alpha = alpha
    self.resamples = resamples
    self.seed = seed
    self.phases = phases
  }

  /// The seed for one comparison: the base seed mixed with a stable hash of its names.
  public func seed(for names: String...) -> UInt64 {
    seed ^ SplitMix64.stableHash(names.joined(separator: "|"))
  }
}
