@testable import LightBoard
import Sampling
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct LightBoardRoundTripTests {
  static func expected(_ captureTime: UInt64, _ sequence: UInt64) -> LightBoardReading {
    .board(captureTimeMicroseconds: (captureTime / 1_000) & ((1 << 48) - 1), barStep: Int(sequence % 32))
  }

  @Test("10,000 random timestamps decode to exactly their microsecond (modulo 2⁴⁸ µs) at 320×240")
  func randomTimestamps() {
    var rng = SplitMix64(seed: 1)
    let image = TestImage(width: 320, height: 240)
    var failures = 0
    for _ in 0..<10_000 {
      let time = rng.next()  // the whole UInt64 ns range: beyond 2^48 µs, so the wrap is exercised
      let sequence = rng.next() % 100_000
      image.render(captureTime: time, sequence: sequence)
      if image.decode() != Self.expected(time, sequence) { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test(
    "the extreme timestamps and every bar step decode",
    arguments: [UInt64(0), 999_999, 1_000_000, UInt64.max])
  func extremes(time: UInt64) {
    let image = TestImage(width: 320, height: 240)
    for sequence in UInt64(0)..<64 {
      image.render(captureTime: time, sequence: sequence)
      #expect(image.decode() == Self.expected(time, sequence))
    }
  }

  @Test(
    "the board is found at every frame size from 320×240 to 1920×1080",
    arguments: [
      (320, 240), (352, 288), (640, 360), (640, 480), (800, 600), (1024, 768), (1280, 720),
      (1280, 960), (1920, 1080), (333, 251), (1919, 1079),
    ])
  func sizes(width: Int, height: Int) {
    var rng = SplitMix64(seed: UInt64(width * 7 + height))
    let image = TestImage(width: width, height: height, bytesPerRow: width + 13)
    for _ in 0..<20 {
      let time = rng.next()
      let sequence = rng.next() % 1000
      image.render(captureTime: time, sequence: sequence)
      #expect(image.decode() == Self.expected(time, sequence))
    }
  }

  @Test(
    "a 2× box-downscaled board decodes", arguments: [(640, 480, 600), (1280, 720, 150), (1920, 1080, 25)])
  func downscaled(width: Int, height: Int, count: Int) {
    var rng = SplitMix64(seed: 2)
    let full = TestImage(width: width, height: height)
    let half = TestImage(width: width / 2, height: height / 2)
    var failures = 0
    for _ in 0..<count {
      let time = rng.next()
      let sequence = rng.next() % 1000
      full.render(captureTime: time, sequence: sequence)
      full.downscale(into: half)
      if half.decode() != Self.expected(time, sequence) { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test(
    "a board with sensor noise (sigma 6) decodes",
    arguments: [(320, 240, 1_000), (640, 480, 150), (1280, 720, 30)])
  func noisy(width: Int, height: Int, count: Int) {
    var rng = SplitMix64(seed: 3)
    let noise = NoiseTable(sigma: 6)
    let image = TestImage(width: width, height: height)
    var failures = 0
    for _ in 0..<count {
      let time = rng.next()
      let sequence = rng.next() % 1000
      image.render(captureTime: time, sequence: sequence)
      image.addNoise(noise, using: &rng)
      if image.decode() != Self.expected(time, sequence) { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test("10,000 random timestamps survive sensor noise and a 2× downscale (320×240 → 160×120)")
  func tenThousandNoisyDownscaled() {
    var rng = SplitMix64(seed: 5)
    let noise = NoiseTable(sigma: 6)
    let full = TestImage(width: 320, height: 240)
    let half = TestImage(width: 160, height: 120)
    var failures = 0
    for _ in 0..<10_000 {
      let time = rng.next()
      let sequence = rng.next() % 1000
      full.render(captureTime: time, sequence: sequence)
      full.addNoise(noise, using: &rng)
      full.downscale(into: half)
      if half.decode() != Self.expected(time, sequence) { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test(
    "a noisy board (sigma 6, and sigma 8 as the noisy profile) decodes after a 2× downscale",
    arguments: [6.0, 8.0])
  func noisyDownscaled(sigma: Double) {
    var rng = SplitMix64(seed: 4)
    let noise = NoiseTable(sigma: sigma)
    let full = TestImage(width: 640, height: 480)
    let half = TestImage(width: 320, height: 240)
    var failures = 0
    for _ in 0..<250 {
      let time = rng.next()
      let sequence = rng.next() % 1000
      full.render(captureTime: time, sequence: sequence)
      full.addNoise(noise, using: &rng)
      full.downscale(into: half)
      half.addNoise(noise, using: &rng)
      if half.decode() != Self.expected(time, sequence) { failures += 1 }
    }
    #expect(failures == 0)
  }

  @Test("a board inside a bigger surface decodes through a sub-image view")
  func subImage() {
    let surface = TestImage(width: 800, height: 600, fill: 128)
    let board = TestImage(width: 640, height: 480)
    board.render(captureTime: 123_456_789_000_000, sequence: 77)
    for y in 0..<480 {
      (surface.pixels + (y + 60) * surface.bytesPerRow + 80).update(from: board.pixels + y * 640, count: 640)
    }
    let view = LumaImage(
      base: surface.pixels + 60 * surface.bytesPerRow + 80, width: 640, height: 480,
      bytesPerRow: surface.bytesPerRow)
    #expect(LightBoard.decode(view) == .board(captureTimeMicroseconds: 123_456_789_000, barStep: 77 % 32))
  }

  /// The board as the layout describes it, pixel by pixel: the scene, the track, the bar in its
  /// slot, and each code block in its level (the reference columns, then the word's bits).
  static func reference(_ time: UInt64, _ sequence: UInt64, width: Int, height: Int, bytesPerRow: Int)
    -> TestImage
  {
    let image = TestImage(width: width, height: height, bytesPerRow: bytesPerRow, fill: 7)
    LightBoard.renderScene(width: width, height: height, bytesPerRow: bytesPerRow, into: image.pixels)
    let layout = LightBoard.layout(width: width, height: height)
    func fill(_ r: LightBoardRect, _ value: UInt8) {
      for y in max(0, r.y)..<min(height, r.y + r.height) {
        for x in max(0, r.x)..<min(width, r.x + r.width) { image.pixels[y * bytesPerRow + x] = value }
      }
    }
    let step = Int(sequence % UInt64(LightBoardLayout.barPeriod))
    fill(layout.barTrack, LightBoardLayout.trackLevel)
    fill(layout.barSlot(step), LightBoardLayout.barLevel)
    let word = LightBoardCode.word(microseconds: time / 1_000, step: step)
    let last = LightBoardLayout.codeColumns - 1
    for row in 0..<LightBoardLayout.codeRows {
      let leftWhite = LightBoardLayout.leftReferenceIsWhite(row: row)
      let white = LightBoardLayout.whiteLevel, black = LightBoardLayout.blackLevel
      fill(layout.codeBlock(row: row, column: 0), leftWhite ? white : black)
      fill(layout.codeBlock(row: row, column: last), leftWhite ? black : white)
      for column in 1..<last {
        let one = LightBoardCode.bit(row * LightBoardLayout.dataColumns + column - 1, of: word)
        fill(layout.codeBlock(row: row, column: column), one ? white : black)
      }
    }
    return image
  }

  @Test(
    "the board drawn over a scene, or over an earlier frame of the same size, equals the whole frame drawn anew",
    arguments: [(320, 240, 320), (641, 480, 700), (1280, 720, 1280), (160, 120, 160)])
  func boardOverScene(width: Int, height: Int, bytesPerRow: Int) {
    var rng = SplitMix64(seed: UInt64(width))
    let kept = TestImage(width: width, height: height, bytesPerRow: bytesPerRow, fill: 7)
    LightBoard.renderScene(width: width, height: height, bytesPerRow: bytesPerRow, into: kept.pixels)
    let fresh = TestImage(width: width, height: height, bytesPerRow: bytesPerRow, fill: 7)
    for _ in 0..<40 {
      let time = rng.next() >> 8
      let sequence = rng.next() % 1_000
      LightBoard.renderBoard(
        captureTime: time, sequence: sequence, width: width, height: height, bytesPerRow: bytesPerRow,
        into: kept.pixels)
      fresh.render(captureTime: time, sequence: sequence)
      #expect(kept.bytes == fresh.bytes, "time \(time), sequence \(sequence)")
      let reference = Self.reference(time, sequence, width: width, height: height, bytesPerRow: bytesPerRow)
      #expect(
        fresh.bytes == reference.bytes, "time \(time), sequence \(sequence): not the board block by block")
      #expect(kept.decode() == Self.expected(time, sequence))
    }
  }
}
