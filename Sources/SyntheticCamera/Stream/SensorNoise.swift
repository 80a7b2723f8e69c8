import Sampling

/// Cheap sensor noise: a precomputed table of Gaussian-like values (the sum of four uniforms,
/// scaled to the profile's sigma) read from a moving offset, so a frame costs one table read,
/// one add and one clamp-table read per pixel.
struct SensorNoise: Sendable {
  static let period = 1 << 16
  /// `clamp[v + 128]` is `v` clamped to 0…255.
  static let clamp: [UInt8] = (0..<512).map { UInt8(max(0, min(255, $0 - 128))) }

  /// Noise + 128, `period + maxWidth` entries (the tail repeats the head, so a row never wraps).
  let values: [Int16]
  let maxWidth: Int

  /// Noise of standard deviation `sigma` luma levels for rows up to `maxWidth` pixels; nil when sigma is 0.
  init?(sigma: Double, maxWidth: Int, seed: UInt64 = 0x5EED) {
    guard sigma > 0 else { return nil }
    var rng = SplitMix64(seed: seed)
    let scale = sigma / (1.0 / 3.0).squareRoot()  // the sum of 4 U(−½, ½) has variance ⅓
    var base = [Int16]()
    base.reserveCapacity(Self.period + maxWidth)
    for _ in 0..<Self.period {
      var s = 0.0
      for _ in 0..<4 { s += rng.nextUnit() - 0.5 }
      base.append(Int16(max(-127, min(127, (s * scale).rounded()))) + 128)
    }
    base.append(contentsOf: base.prefix(maxWidth))
    values = base
    self.maxWidth = maxWidth
  }

  /// Adds noise to a `width × height` image; `seed` (e.g. the frame's sequence) moves the offset.
  func apply(to pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, bytesPerRow: Int, seed: UInt64)
  {
    precondition(width <= maxWidth, "noise table narrower than the frame")
    var offset = Int(truncatingIfNeeded: (seed &* 40_503) % UInt64(Self.period))
    values.withUnsafeBufferPointer { noise in
      Self.clamp.withUnsafeBufferPointer { clamp in
        for y in 0..<height {
          let row = pixels + y &* bytesPerRow
          let n = noise.baseAddress! + offset
          for x in 0..<width { row[x] = clamp[Int(row[x]) &+ Int(n[x])] }
          offset = (offset &+ 7_919) & (Self.period - 1)
        }
      }
    }
  }
}
