import Foundation
import Sampling

extension SplitMix64 {
  /// A standard normal deviate (Box–Muller; one of the pair is discarded for simplicity).
  public mutating func nextGaussian() -> Double {
    var u1 = nextUnit()
    while u1 <= 0 { u1 = nextUnit() }
    let u2 = nextUnit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
