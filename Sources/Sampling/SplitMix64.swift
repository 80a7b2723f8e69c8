/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, seedable generator, so that every
/// bootstrap and simulation in FirstFrame is reproducible from its seed on every platform.
/// Not cryptographic.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator; the same seed always yields the same sequence.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniform integer in `0..<bound` (Lemire's multiply-shift, with rejection so it is unbiased).
  public mutating func nextIndex(below bound: Int) -> Int {
    precondition(bound > 0, "bound must be positive")
    let b = UInt64(bound)
    var product = next().multipliedFullWidth(by: b)
    if product.low < b {
      let threshold = (0 &- b) % b
      while product.low < threshold { product = next().multipliedFullWidth(by: b) }
    }
    return Int(product.high)
  }

  /// Shuffles `elements` in place (Fisher–Yates, from the last element down): the one shuffle the
  /// resampling code uses, so that a seed gives the same order everywhere.
  public mutating func shuffle<Element>(_ elements: inout [Element]) {
    guard elements.count > 1 else { return }
    for i in stride(from: elements.count - 1, to: 0, by: -1) {
      elements.swapAt(i, nextIndex(below: i + 1))
    }
  }

  /// A uniform double in [0, 1) with 53 random bits.
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A stable 64-bit hash (FNV-1a) of `text`, to derive per-comparison seeds from names.
  public static func stableHash(_ text: String) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 {
      h ^= UInt64(byte)
      h = h &* 0x0000_0100_0000_01B3
    }
    return h
  }
}
