import Testing
import TestSupport

@testable import Probe

/// The Wayland probe's conversion of screencopy pixels to the detector's luma.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct WaylandLumaTests {
  /// Converts 32-bit words (rows of `width`, stride `stride` bytes) and returns the luma.
  static func convert(
    _ words: [UInt32], format: UInt32, width: Int, height: Int, stride: Int? = nil, yInverted: Bool = false,
    region: WaylandRegion? = nil, scale: Int = 1
  ) -> [UInt8]? {
    let stride = stride ?? width * 4
    var bytes = [UInt8](repeating: 0, count: max(stride, width * 4) * height)
    for y in 0..<height {
      for x in 0..<width {
        withUnsafeBytes(of: words[y * width + x].littleEndian) { word in
          for k in 0..<4 { bytes[y * stride + 4 * x + k] = word[k] }
        }
      }
    }
    let area = region ?? WaylandRegion(x: 0, y: 0, width: width, height: height)
    var out = [UInt8](repeating: 0, count: (area.width / scale) * (area.height / scale))
    let converted = bytes.withUnsafeBytes { pixels in
      out.withUnsafeMutableBufferPointer { target in
        WaylandLuma.convert(
          pixels, format: format, width: width, height: height, stride: stride, yInverted: yInverted,
          region: region, scale: scale, into: target)
      }
    }
    return converted ? out : nil
  }

  @Test("grey XRGB8888 and ARGB8888 pixels read back as their level, whatever the alpha byte and the stride")
  func greyLevels() {
    let levels: [UInt32] = [0, 63, 128, 255]
    let xrgb = levels.map { $0 << 16 | $0 << 8 | $0 }
    #expect(Self.convert(xrgb, format: 1, width: 4, height: 1) == [0, 63, 128, 255])
    #expect(Self.convert(xrgb.map { $0 | 0xff00_0000 }, format: 0, width: 4, height: 1) == [0, 63, 128, 255])
    #expect(Self.convert(xrgb, format: 1, width: 2, height: 2, stride: 12) == [0, 63, 128, 255])
  }

  @Test("red is where the format says: bits 16-23 for XRGB, bits 0-7 for XBGR and ABGR")
  func channelOrder() {
    let red: UInt8 = 77  // (77 × 255 + 128) / 256
    let blue: UInt8 = 29  // (29 × 255 + 128) / 256
    #expect(Self.convert([0x00ff_0000, 0x0000_00ff], format: 1, width: 2, height: 1) == [red, blue])
    #expect(
      Self.convert([0x0000_00ff, 0x00ff_0000], format: 0x3432_4258, width: 2, height: 1) == [red, blue])
    #expect(Self.convert([0xff00_00ff], format: 0x3432_4241, width: 1, height: 1) == [red])
  }

  @Test(
    "y-inverted rows come out top down, and a reduced read takes every scale-th pixel of every scale-th row")
  func rowsAndScale() {
    let grey: (UInt32) -> UInt32 = { $0 << 16 | $0 << 8 | $0 }
    #expect(
      Self.convert([grey(10), grey(20), grey(30)], format: 1, width: 1, height: 3, yInverted: true) == [
        30, 20, 10,
      ])
    let four = (0..<16).map { grey(UInt32($0)) }  // 4×4, level = index
    #expect(Self.convert(four, format: 1, width: 4, height: 4, scale: 2) == [0, 2, 8, 10])
    #expect(Self.convert(four, format: 1, width: 4, height: 4, yInverted: true, scale: 2) == [12, 14, 4, 6])
    #expect(WaylandLuma.reducedScale(width: 640, height: 360) == 2)
    #expect(WaylandLuma.reducedScale(width: 1280, height: 720) == 4)
    #expect(WaylandLuma.reducedScale(width: 320, height: 240) == 1)
  }

  @Test("a layout other than 32-bit RGB, or a buffer shorter than its rows, is refused")
  func refusals() {
    #expect(Self.convert([0], format: 0x3631_5652, width: 1, height: 1) == nil)  // RGB565
    #expect(Self.convert([0, 0], format: 1, width: 2, height: 1, stride: 4) == nil)
  }

  @Test(
    "a region (the app's window) reads exactly its pixels, top down whether or not the copy is y-inverted")
  func regionReadsOnlyTheRegion() {
    let grey: (UInt32) -> UInt32 = { $0 << 16 | $0 << 8 | $0 }
    // 6×5 output, level = 10 × row + column; the region is 3×2 at (2, 1).
    let levels = (0..<5).flatMap { y in (0..<6).map { x in UInt32(10 * y + x) } }
    let region = WaylandRegion(x: 2, y: 1, width: 3, height: 2)
    #expect(
      Self.convert(levels.map(grey), format: 1, width: 6, height: 5, stride: 28, region: region) == [
        12, 13, 14, 22, 23, 24,
      ])
    // The same picture copied bottom up: the buffer's rows are reversed, the region is not.
    let bottomUp = (0..<5).reversed().flatMap { y in (0..<6).map { x in UInt32(10 * y + x) } }
    #expect(
      Self.convert(bottomUp.map(grey), format: 1, width: 6, height: 5, yInverted: true, region: region) == [
        12, 13, 14, 22, 23, 24,
      ])
    // At 1/2: every other pixel of every other row of the region, from its corner.
    let wide = WaylandRegion(x: 1, y: 1, width: 4, height: 4)
    #expect(
      Self.convert(levels.map(grey), format: 1, width: 6, height: 5, region: wide, scale: 2) == [
        11, 13, 31, 33,
      ])
    #expect(
      Self.convert(
        bottomUp.map(grey), format: 1, width: 6, height: 5, yInverted: true, region: wide, scale: 2) == [
          11, 13, 31, 33,
        ])
    // A region not wholly inside the output is refused, never read past the buffer.
    #expect(
      Self.convert(
        levels.map(grey), format: 1, width: 6, height: 5,
        region: WaylandRegion(x: 4, y: 0, width: 3, height: 1))
        == nil)
    #expect(
      Self.convert(
        levels.map(grey), format: 1, width: 6, height: 5,
        region: WaylandRegion(x: 0, y: 0, width: 0, height: 1))
        == nil)
  }
}
