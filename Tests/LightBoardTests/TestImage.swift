import LightBoard
import Sampling

/// An owned luma image for tests, with the transformations a display path applies.
final class TestImage {
  let width: Int
  let height: Int
  let bytesPerRow: Int
  let pixels: UnsafeMutablePointer<UInt8>

  init(width: Int, height: Int, bytesPerRow: Int? = nil, fill: UInt8 = 0) {
    self.width = width
    self.height = height
    self.bytesPerRow = bytesPerRow ?? width
    pixels = .allocate(capacity: self.bytesPerRow * height)
    pixels.initialize(repeating: fill, count: self.bytesPerRow * height)
  }

  deinit { pixels.deallocate() }

  /// Every byte of the image, padding included.
  var bytes: [UInt8] { Array(UnsafeBufferPointer(start: pixels, count: bytesPerRow * height)) }

  var view: LumaImage { LumaImage(base: pixels, width: width, height: height, bytesPerRow: bytesPerRow) }

  func render(captureTime: UInt64, sequence: UInt64) {
    LightBoard.render(
      captureTime: captureTime, sequence: sequence, width: width, height: height, bytesPerRow: bytesPerRow,
      into: pixels)
  }

  func decode() -> LightBoardReading { LightBoard.decode(view) }

  /// Box (area-average) 2× downscale into `target`, which must be half the size.
  func downscale(into target: TestImage) {
    precondition(target.width == width / 2 && target.height == height / 2)
    for y in 0..<target.height {
      let r0 = pixels + (2 * y) * bytesPerRow
      let r1 = r0 + bytesPerRow
      let out = target.pixels + y * target.bytesPerRow
      for x in 0..<target.width {
        let s = Int(r0[2 &* x]) &+ Int(r0[2 &* x &+ 1]) &+ Int(r1[2 &* x]) &+ Int(r1[2 &* x &+ 1])
        out[x] = UInt8((s &+ 2) >> 2)
      }
    }
  }

  /// Adds noise from `table` starting at a random offset (rows shifted), clamped to 0…255.
  func addNoise(_ table: NoiseTable, using rng: inout SplitMix64) {
    var offset = Int(rng.next() % UInt64(table.period))
    table.values.withUnsafeBufferPointer { noise in
      NoiseTable.clamp.withUnsafeBufferPointer { clamp in
        for y in 0..<height {
          let row = pixels + y * bytesPerRow
          let n = noise.baseAddress! + offset
          for x in 0..<width { row[x] = clamp[Int(row[x]) &+ Int(n[x])] }
          offset = (offset &+ 7919) % table.period
        }
      }
    }
  }

  func fillRandom(using rng: inout SplitMix64) {
    for i in 0..<(bytesPerRow * height) { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
  }

  func fill(_ rect: LightBoardRect, _ value: UInt8) {
    for y in rect.y..<(rect.y + rect.height) {
      (pixels + y * bytesPerRow + rect.x).update(repeating: value, count: rect.width)
    }
  }
}

/// Gaussian-ish noise (sum of four uniforms, scaled to `sigma` luma levels).
struct NoiseTable {
  /// `clamp[v + 128]` is `v` clamped to 0…255, for v in −128…383; indexed by pixel + noise + 128.
  static let clamp: [UInt8] = (0..<512).map { UInt8(max(0, min(255, $0 - 128))) }
  let period: Int
  let values: [Int16]  // noise + 128

  init(sigma: Double, period: Int = 1 << 14, maxWidth: Int = 1920, seed: UInt64 = 7) {
    var rng = SplitMix64(seed: seed)
    var base = [Int16]()
    base.reserveCapacity(period)
    // Sum of 4 U(-0.5, 0.5) has variance 4/12 = 1/3.
    let scale = sigma / (1.0 / 3.0).squareRoot()
    for _ in 0..<period {
      var s = 0.0
      for _ in 0..<4 { s += Double(rng.next() >> 11) / Double(1 << 53) - 0.5 }
      base.append(Int16(max(-127, min(127, (s * scale).rounded()))) + 128)
    }
    self.period = period
    values = base + base.prefix(maxWidth)
  }
}
