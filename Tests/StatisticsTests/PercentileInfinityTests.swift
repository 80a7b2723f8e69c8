import Sampling
import Testing
import TestSupport

/// Failed runs rank as +∞ (`rankedSamples`): a percentile that falls on one must be +∞, not the
/// NaN of interpolating ∞ − ∞.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct PercentileInfinityTests {
  @Test("a median that falls on a failed run (+∞) is +∞, and between a finished and a failed run too")
  func infiniteRanks() {
    #expect(Percentile.type7(sorted: [100, 101, .infinity, .infinity, .infinity], 0.5) == .infinity)
    #expect(Percentile.type7(sorted: [100, 101, .infinity, .infinity], 0.5) == .infinity)
    #expect(Percentile.type7(sorted: [100, 101, 102, .infinity], 0.5) == 101.5)
    #expect(Percentile.type7(sorted: [.infinity, .infinity], 0.3) == .infinity)
    #expect(Percentile.type7(sorted: [100, 110, 120], 0.25) == 105)
  }
}
