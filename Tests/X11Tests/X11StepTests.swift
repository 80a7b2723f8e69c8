import LightBoard
import Testing

@testable import X11Display

/// Large windows are read at a step (every `step`-th row, each luma pixel the mean of `step`
/// neighbours in its row): what is read, what is skipped, and that the light board still decodes.
/// No X server needed.
@Suite struct X11StepTests {
  static func format() throws -> X11PixelFormat {
    let setup = X11WireTests.setupBytes().withUnsafeBytes { X11Setup(wire: $0.baseAddress!) }
    return try X11PixelFormat(setup: setup, visual: try #require(setup.visual(0x21, on: 0)), depth: 24)
  }

  @Test(
    "the step keeps the analysed image within 640×480 pixels",
    arguments: [
      (640, 480, 1), (320, 240, 1), (641, 480, 2), (1280, 720, 2), (1920, 1080, 3), (3840, 2160, 6),
      (1, 1, 1),
    ])
  func stepForSize(width: Int, height: Int, expected: Int) {
    let step = X11WindowCapture.step(width: width, height: height)
    #expect(step == expected)
    #expect((width / step) * ((height + step - 1) / step) <= X11WindowCapture.analysedPixelLimit)
  }

  @Test("a changed area grows to whole steps and stays in non-negative coordinates")
  func aligned() {
    #expect(
      X11Rectangle(x: 3, y: 5, width: 4, height: 1).aligned(to: 2)
        == X11Rectangle(x: 2, y: 4, width: 6, height: 2))
    #expect(
      X11Rectangle(x: 4, y: 6, width: 2, height: 2).aligned(to: 2)
        == X11Rectangle(x: 4, y: 6, width: 2, height: 2))
    #expect(
      X11Rectangle(x: 1, y: 1, width: 1, height: 1).aligned(to: 3)
        == X11Rectangle(x: 0, y: 0, width: 3, height: 3))
    #expect(
      X11Rectangle(x: 3, y: 5, width: 4, height: 1).aligned(to: 1)
        == X11Rectangle(x: 3, y: 5, width: 4, height: 1))
  }

  @Test("at step 2 each luma pixel is the mean of two neighbours in an even row; odd rows are never read")
  func stepTwoMeans() throws {
    let format = try Self.format()
    let grey = format.greyPixels()
    let width = 6
    let height = 4
    var pixels = [UInt32](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width {
        // Even rows: levels 10·x + y; odd rows: white (they must not show up in the result).
        pixels[y * width + x] = y % 2 == 0 ? grey[10 * x + y] : grey[255]
      }
    }
    var luma = [UInt8](repeating: 0, count: (width / 2) * (height / 2))
    pixels.withUnsafeBytes { raw in
      luma.withUnsafeMutableBufferPointer { out in
        format.luma(
          from: raw.baseAddress!, sourceBytesPerRow: 4 * width, width: width, height: height,
          into: out.baseAddress!, destinationBytesPerRow: width / 2, step: 2)
      }
    }
    // Row 0: (0+10)/2, (20+30)/2, (40+50)/2; row 2: (2+12)/2, (22+32)/2, (42+52)/2.
    #expect(luma == [5, 25, 45, 7, 27, 47])
  }

  @Test(
    "a light board filling a large window decodes from the stepped luma image",
    arguments: [
      (1280, 720), (1920, 1080), (800, 600),
    ])
  func boardDecodesAtStep(width: Int, height: Int) throws {
    let format = try Self.format()
    let grey = format.greyPixels()
    let captureTime: UInt64 = 123_456_789_000_000
    var board = [UInt8](repeating: 0, count: width * height)
    board.withUnsafeMutableBufferPointer {
      LightBoard.render(
        captureTime: captureTime, sequence: 7, width: width, height: height, bytesPerRow: width,
        into: $0.baseAddress!)
    }
    let pixels = board.map { grey[Int($0)] }
    let step = X11WindowCapture.step(width: width, height: height)
    #expect(step > 1)
    let lumaWidth = width / step
    let lumaHeight = (height + step - 1) / step
    var luma = [UInt8](repeating: 0, count: lumaWidth * lumaHeight)
    pixels.withUnsafeBytes { raw in
      luma.withUnsafeMutableBufferPointer { out in
        format.luma(
          from: raw.baseAddress!, sourceBytesPerRow: 4 * width, width: width, height: height,
          into: out.baseAddress!, destinationBytesPerRow: lumaWidth, step: step)
      }
    }
    let reading = luma.withUnsafeBufferPointer {
      LightBoard.decode(
        LumaImage(base: $0.baseAddress!, width: lumaWidth, height: lumaHeight, bytesPerRow: lumaWidth))
    }
    #expect(reading == .board(captureTimeMilliseconds: captureTime / 1_000_000, barStep: 7))
  }
}
