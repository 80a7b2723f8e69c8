import Foundation

/// Student's t distribution and the two-sample t-test with pooled variance: what the windowed
/// change-point detector (`WindowedChangePoints`) judges a split with.
package enum StudentT {
  /// P(|T| ≥ |t|) for T with `degreesOfFreedom` (> 0): the two-sided p-value,
  /// I_{ν/(ν+t²)}(ν/2, 1/2) (the regularized incomplete beta function).
  package static func twoSidedPValue(_ t: Double, degreesOfFreedom: Double) -> Double {
    guard degreesOfFreedom > 0, !t.isNaN else { return 1 }
    guard t.isFinite else { return 0 }
    let x = degreesOfFreedom / (degreesOfFreedom + t * t)
    return min(1, max(0, regularizedBeta(x, a: degreesOfFreedom / 2, b: 0.5)))
  }

  /// The two-sample t statistic with pooled variance and its two-sided p-value (ν = n₁ + n₂ − 2).
  /// One point on a side is allowed (its variance comes from the other side); with fewer than
  /// three points in all, or no spread and equal means, p is 1; no spread and different means, 0.
  package static func test(_ before: ArraySlice<Double>, _ after: ArraySlice<Double>) -> (
    t: Double, pValue: Double
  ) {
    let n1 = Double(before.count)
    let n2 = Double(after.count)
    guard n1 >= 1, n2 >= 1, n1 + n2 >= 3 else { return (0, 1) }
    let mean1 = before.reduce(0, +) / n1
    let mean2 = after.reduce(0, +) / n2
    let squares1: Double = before.reduce(0) { $0 + ($1 - mean1) * ($1 - mean1) }
    let squares2: Double = after.reduce(0) { $0 + ($1 - mean2) * ($1 - mean2) }
    let squares = squares1 + squares2
    let degrees = n1 + n2 - 2
    let variance = squares / degrees
    let difference = mean2 - mean1
    // No spread: a difference is certain, none is none (relative to the values' size).
    let scale = max(abs(mean1), abs(mean2), 1e-300)
    guard variance > scale * scale * 1e-24 else {
      return abs(difference) > scale * 1e-12 ? (.infinity, 0) : (0, 1)
    }
    let t = difference / (variance * (1 / n1 + 1 / n2)).squareRoot()
    return (t, twoSidedPValue(t, degreesOfFreedom: degrees))
  }

  /// I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified
  /// Lentz), on the side where it converges fast.
  package static func regularizedBeta(_ x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
    let logPowers: Double = a * log(x) + b * log(1 - x)
    let logFront = logBeta + logPowers
    if x < (a + 1) / (a + b + 2) { return exp(logFront) * continuedFraction(x, a: a, b: b) / a }
    return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
  }

  /// The continued fraction of I_x(a, b) (its terms d₂ₘ = m(b−m)x/((a+2m−1)(a+2m)),
  /// d₂ₘ₊₁ = −(a+m)(a+b+m)x/((a+2m)(a+2m+1))).
  private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var value = d
    for m in 1...300 {
      let mm = Double(m)
      let even: Double = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm))
      let odd: Double = -(a + mm) * (a + b + mm) * x / ((a + 2 * mm) * (a + 2 * mm + 1))
      for numerator in [even, odd] {
        d = 1 + numerator * d
        if abs(d) < tiny { d = tiny }
        c = 1 + numerator / c
        if abs(c) < tiny { c = tiny }
        d = 1 / d
        value *= d * c
      }
      if abs(d * c - 1) < 1e-15 { break }
    }
    return value
  }
}
