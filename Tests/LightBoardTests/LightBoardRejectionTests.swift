import LightBoard
import Sampling
import Testing

@Suite struct LightBoardRejectionTests {
  @Test(
    "uniform images (black, grey, white) have no board", arguments: [UInt8(0), 16, 64, 128, 200, 235, 255])
  func uniform(level: UInt8) {
    for (w, h) in [(320, 240), (640, 480), (1280, 720)] {
      #expect(TestImage(width: w, height: h, fill: level).decode() == .noBoard)
    }
  }

  @Test("random-noise images have no board")
  func randomNoise() {
    var rng = SplitMix64(seed: 11)
    let image = TestImage(width: 320, height: 240)
    var found = 0
    for _ in 0..<500 {
      image.fillRandom(using: &rng)
      if image.decode() != .noBoard { found += 1 }
    }
    #expect(found == 0)
  }

  @Test("the board-less scene has no board, clean, noisy and downscaled")
  func scene() {
    var rng = SplitMix64(seed: 12)
    let noise = NoiseTable(sigma: 6)
    for (w, h) in [(320, 240), (640, 480), (1280, 720), (1920, 1080)] {
      let image = TestImage(width: w, height: h)
      LightBoard.renderScene(width: w, height: h, bytesPerRow: w, into: image.pixels)
      #expect(image.decode() == .noBoard)
      image.addNoise(noise, using: &rng)
      #expect(image.decode() == .noBoard)
      let half = TestImage(width: w / 2, height: h / 2)
      image.downscale(into: half)
      #expect(half.decode() == .noBoard)
    }
  }

  @Test("a board with any one data block inverted or greyed fails the check and reads as no board")
  func corruptedBlock() {
    let image = TestImage(width: 320, height: 240)
    let layout = LightBoard.layout(width: 320, height: 240)
    let time: UInt64 = 987_654_321_123_456
    var accepted = 0
    for row in 0..<LightBoardLayout.codeRows {
      for column in 1..<(LightBoardLayout.codeColumns - 1) {
        let block = layout.codeBlock(row: row, column: column)
        for mode in 0..<2 {
          image.render(captureTime: time, sequence: 5)
          #expect(image.decode() != .noBoard)
          let current = image.pixels[block.midY * image.bytesPerRow + block.midX]
          let replacement: UInt8 =
            mode == 0
            ? (current == LightBoardLayout.whiteLevel
              ? LightBoardLayout.blackLevel : LightBoardLayout.whiteLevel)
            : 128
          image.fill(block, replacement)
          if image.decode() != .noBoard { accepted += 1 }
        }
      }
    }
    #expect(accepted == 0)
  }

  @Test("a board whose reference blocks are missing or whose bar is in the wrong slot reads as no board")
  func brokenReferencesAndBar() {
    let image = TestImage(width: 640, height: 480)
    let layout = LightBoard.layout(width: 640, height: 480)
    image.render(captureTime: 42_000_000, sequence: 3)
    image.fill(layout.codeBlock(row: 2, column: 0), LightBoardLayout.blackLevel)
    #expect(image.decode() == .noBoard)

    image.render(captureTime: 42_000_000, sequence: 3)
    image.fill(layout.barSlot(3), LightBoardLayout.trackLevel)
    image.fill(layout.barSlot(4), LightBoardLayout.barLevel)
    #expect(image.decode() == .noBoard)

    image.render(captureTime: 42_000_000, sequence: 3)
    image.fill(layout.barSlot(9), LightBoardLayout.barLevel)
    #expect(image.decode() == .noBoard)
  }

  @Test("images smaller than the minimum size read as no board and rendering into them is safe")
  func tiny() {
    let image = TestImage(width: 100, height: 80)
    image.render(captureTime: 1_000_000_000, sequence: 1)
    #expect(image.decode() == .noBoard)
  }
}
