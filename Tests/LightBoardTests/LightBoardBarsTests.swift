import LightBoard
import Sampling
import Testing
import TestSupport

/// A board shown inside bars (issue 36): mpv and SDL keep the frame's aspect, so a 640×480 feed
/// in a 640×360 tiled Wayland window is drawn 480×360 between two black bars, and a client
/// smaller than the region the probe reads is surrounded by the compositor's grey. The decoder
/// finds the picture inside the bars; what it reads there is checked as any board is.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct LightBoardBarsTests {
  /// An image of `width`×`height` filled with `bar`, with the board rendered into `picture`.
  struct Boxed: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var picture: LightBoardRect
    var bar: UInt8
    var testDescription: String {
      "\(picture.width)×\(picture.height) at (\(picture.x), \(picture.y)) in \(width)×\(height) of \(bar)"
    }
  }

  static let cases: [Boxed] = [
    // mpv's 640×480 in sway's 640×360 tile, as the probe reads it (1/2 each way)
    Boxed(width: 320, height: 180, picture: LightBoardRect(x: 40, y: 0, width: 240, height: 180), bar: 0),
    Boxed(width: 640, height: 360, picture: LightBoardRect(x: 80, y: 0, width: 480, height: 360), bar: 0),
    // a 16:9 picture in a 4:3 window: bars above and below
    Boxed(width: 640, height: 480, picture: LightBoardRect(x: 0, y: 60, width: 640, height: 360), bar: 16),
    // bars on all four sides, and sway's background (0x40) around a centred client
    Boxed(width: 640, height: 480, picture: LightBoardRect(x: 81, y: 61, width: 477, height: 357), bar: 3),
    Boxed(
      width: 800, height: 600, picture: LightBoardRect(x: 80, y: 120, width: 640, height: 360), bar: 0x40),
    // one bar only (a picture at the window's left edge)
    Boxed(width: 400, height: 240, picture: LightBoardRect(x: 0, y: 0, width: 320, height: 240), bar: 0),
  ]

  static func image(_ c: Boxed, time: UInt64, sequence: UInt64, board: Bool = true) -> TestImage {
    let image = TestImage(width: c.width, height: c.height, bytesPerRow: c.width + 7, fill: c.bar)
    let origin = image.pixels + c.picture.y * image.bytesPerRow + c.picture.x
    if board {
      LightBoard.render(
        captureTime: time, sequence: sequence, width: c.picture.width, height: c.picture.height,
        bytesPerRow: image.bytesPerRow, into: origin)
    } else {
      LightBoard.renderScene(
        width: c.picture.width, height: c.picture.height, bytesPerRow: image.bytesPerRow, into: origin)
    }
    return image
  }

  @Test("a board between bars, on two sides, four or one, decodes to its time", arguments: cases)
  func boxed(_ c: Boxed) {
    var rng = SplitMix64(seed: UInt64(c.width * 31 + c.picture.x))
    for _ in 0..<20 {
      let time = rng.next() % (1 << 60)
      let sequence = rng.next() % 1000
      let image = Self.image(c, time: time, sequence: sequence)
      #expect(image.decode() == LightBoardRoundTripTests.expected(time, sequence))
    }
  }

  @Test("a scene without a board between bars is no board", arguments: cases)
  func sceneOnly(_ c: Boxed) {
    #expect(Self.image(c, time: 1_000_000, sequence: 3, board: false).decode() == .noBoard)
  }

  @Test("bars that leave less than the smallest board's size are no board")
  func tooSmallInside() {
    let c = Boxed(
      width: 320, height: 180, picture: LightBoardRect(x: 90, y: 0, width: 140, height: 105), bar: 0)
    #expect(Self.image(c, time: 5_000_000, sequence: 1).decode() == .noBoard)
  }

  @Test("bars brighter than the brightest bar looked for are not looked inside")
  func brightBars() {
    let c = Boxed(
      width: 640, height: 360, picture: LightBoardRect(x: 80, y: 0, width: 480, height: 360), bar: 200)
    #expect(Self.image(c, time: 5_000_000, sequence: 1).decode() == .noBoard)
  }

  @Test(
    "a board drawn 480×360 (mpv's 640×480 in a 640×360 tile), box-downscaled by 2 and read between black bars, decodes"
  )
  func scaledThenBoxed() {
    var rng = SplitMix64(seed: 9)
    let full = TestImage(width: 480, height: 360)
    let half = TestImage(width: 240, height: 180)
    let window = TestImage(width: 320, height: 180, fill: 0)
    for _ in 0..<20 {
      let time = rng.next() % (1 << 60)
      let sequence = rng.next() % 1000
      full.render(captureTime: time, sequence: sequence)
      full.downscale(into: half)
      for y in 0..<180 {
        (window.pixels + y * window.bytesPerRow + 40).update(
          from: half.pixels + y * half.bytesPerRow, count: 240)
      }
      #expect(window.decode() == LightBoardRoundTripTests.expected(time, sequence))
    }
  }
}
