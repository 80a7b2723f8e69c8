/// Draws the light board. Everything is drawn as horizontal spans (`update(repeating:count:)`),
/// so a 1280×720 frame costs a few thousand span fills, not a per-pixel loop.
enum LightBoardRenderer {
  static func render(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    renderScene(width: width, height: height, bytesPerRow: bytesPerRow, into: pixels)
    let layout = LightBoardLayout(width: width, height: height)
    guard layout.isUsable else { return }
    let step = Int(sequence % UInt64(LightBoardLayout.barPeriod))
    let canvas = Canvas(base: pixels, width: width, height: height, bytesPerRow: bytesPerRow)

    canvas.fill(layout.barTrack, LightBoardLayout.trackLevel)
    canvas.fill(layout.barSlot(step), LightBoardLayout.barLevel)

    let word = LightBoardCode.word(microseconds: captureTime / 1_000, step: step)
    let last = LightBoardLayout.codeColumns - 1
    for row in 0..<LightBoardLayout.codeRows {
      let leftWhite = LightBoardLayout.leftReferenceIsWhite(row: row)
      canvas.fill(
        layout.codeBlock(row: row, column: 0),
        leftWhite ? LightBoardLayout.whiteLevel : LightBoardLayout.blackLevel)
      canvas.fill(
        layout.codeBlock(row: row, column: last),
        leftWhite ? LightBoardLayout.blackLevel : LightBoardLayout.whiteLevel)
      for column in 1..<last {
        let index = row * LightBoardLayout.dataColumns + column - 1
        let one = LightBoardCode.bit(index, of: word)
        canvas.fill(
          layout.codeBlock(row: row, column: column),
          one ? LightBoardLayout.whiteLevel : LightBoardLayout.blackLevel)
      }
    }
  }

  /// A still lab scene without a board: sky gradient, sun, hill, building, ground gradient.
  static func renderScene(width: Int, height: Int, bytesPerRow: Int, into pixels: UnsafeMutablePointer<UInt8>)
  {
    guard width > 0, height > 0 else { return }
    let canvas = Canvas(base: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
    let horizon = height / 2
    let sunX = width * 3 / 4
    let sunY = height * 3 / 8
    let sunR = max(1, min(width, height) / 10)
    let hillX = width / 4
    let hillTop = height * 3 / 10
    let hillHalfBase = width / 5
    let buildingX = width * 11 / 20
    let buildingW = max(1, width / 10)
    let buildingTop = height * 3 / 10
    for y in 0..<height {
      let sky = y < horizon
      let base =
        sky
        ? 170 - 50 * y / max(1, horizon)
        : 60 + 30 * (y - horizon) / max(1, height - horizon)
      canvas.span(y: y, from: 0, to: width, UInt8(base))
      guard sky else { continue }
      let dy = y - sunY
      if dy * dy <= sunR * sunR {
        let half = isqrt(sunR * sunR - dy * dy)
        canvas.span(y: y, from: sunX - half, to: sunX + half + 1, 210)
      }
      if y >= hillTop {
        let half = hillHalfBase * (y - hillTop) / max(1, horizon - hillTop)
        canvas.span(y: y, from: hillX - half, to: hillX + half + 1, 95)
      }
      if y >= buildingTop {
        canvas.span(y: y, from: buildingX, to: buildingX + buildingW, 50)
      }
    }
  }

  /// Integer square root (floor).
  static func isqrt(_ n: Int) -> Int {
    guard n > 0 else { return 0 }
    var x = Int(Double(n).squareRoot())
    while x * x > n { x -= 1 }
    while (x + 1) * (x + 1) <= n { x += 1 }
    return x
  }
}

/// A clipped, writable luma image used by the renderer.
struct Canvas {
  let base: UnsafeMutablePointer<UInt8>
  let width: Int
  let height: Int
  let bytesPerRow: Int

  /// Fills columns `from ..< to` of row `y`, clipped to the image.
  @inline(__always)
  func span(y: Int, from: Int, to: Int, _ value: UInt8) {
    guard y >= 0, y < height else { return }
    let x0 = max(0, from)
    let x1 = min(width, to)
    guard x1 > x0 else { return }
    (base + y * bytesPerRow + x0).update(repeating: value, count: x1 - x0)
  }

  /// Fills `rect`, clipped to the image.
  func fill(_ rect: LightBoardRect, _ value: UInt8) {
    for y in rect.y..<(rect.y + max(0, rect.height)) {
      span(y: y, from: rect.x, to: rect.x + rect.width, value)
    }
  }
}
