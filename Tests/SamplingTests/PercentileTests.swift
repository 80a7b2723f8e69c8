import Sampling
import Testing

/// The one percentile (type 7) every table, gate and calibration uses.
@Suite struct PercentileTests {
  @Test("type 7 interpolates between closest ranks: p50 of an even count is the mean of the middle two")
  func interpolates() {
    let x = [1.0, 2, 3, 4]
    #expect(Percentile.type7(sorted: x, 0.5) == 2.5)
    #expect(Percentile.type7(sorted: x, 0) == 1)
    #expect(Percentile.type7(sorted: x, 1) == 4)
    // h = 3 · 0.9 = 2.7: 3 + 0.7 · (4 − 3).
    #expect(abs(Percentile.type7(sorted: x, 0.9) - 3.7) < 1e-12)
    // NumPy's default: numpy.percentile([10, 20, 30, 40, 50], 99) == 49.6.
    #expect(abs(Percentile.type7(sorted: [10, 20, 30, 40, 50], 0.99) - 49.6) < 1e-12)
  }

  @Test("out-of-range p is clamped; one sample is every percentile; none is NaN")
  func edges() {
    #expect(Percentile.type7(sorted: [1, 2], -3) == 1)
    #expect(Percentile.type7(sorted: [1, 2], 7) == 2)
    #expect(Percentile.type7(sorted: [42], 0.99) == 42)
    #expect(Percentile.type7(sorted: [], 0.5).isNaN)
  }

  @Test("a failed run (+∞) ranks slowest: a percentile on it is +∞, one on a finished value is that value")
  func infinities() {
    let x = [10.0, 20, .infinity, .infinity]
    #expect(Percentile.type7(sorted: x, 0) == 10)
    #expect(Percentile.type7(sorted: x, 1.0 / 3) == 20)
    #expect(Percentile.type7(sorted: x, 0.5) == .infinity)
    #expect(Percentile.interpolate(20, .infinity, fraction: 0) == 20)
    #expect(Percentile.interpolate(-.infinity, .infinity, fraction: 0.5).isNaN)
    #expect(!Percentile.type7(sorted: [1, 2, .infinity], 0.25).isNaN)
  }
}
