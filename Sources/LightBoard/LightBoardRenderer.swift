import SystemCalls

/// Draws the light board. Everything is drawn as horizontal spans (`memset`), so a 1280×720
/// frame costs a few thousand span fills, not a per-pixel loop.
enum LightBoardRenderer {
  static func render(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    renderScene(width: width, height: height, bytesPerRow: bytesPerRow, into: pixels)
    renderBoard(
      captureTime: captureTime, sequence: sequence, width: width, height: height, bytesPerRow: bytesPerRow,
      into: pixels)
  }

  /// The bar track, the bar and the code band alone: every pixel ``render`` draws over the scene.
  static func renderBoard(
    captureTime: UInt64, sequence: UInt64, width: Int, height: Int, bytesPerRow: Int,
    into pixels: UnsafeMutablePointer<UInt8>
  ) {
    guard width > 0, height > 0 else { return }
    let layout = LightBoardLayout(width: width, height: height)
    guard layout.isUsable else { return }
    let step = Int(sequence % UInt64(LightBoardLayout.barPeriod))
    let canvas = Canvas(base: pixels, width: width, height: height, bytesPerRow: bytesPerRow)

    // Each band is drawn in its first pixel row and copied down: the bar track (track, then the
    // bar in its slot, both the track's height) and each row of code blocks (all of a row's
    // blocks share their top and bottom). A debug build pays per call, not per byte.
    let track = layout.barTrack
    let slot = layout.barSlot(step)
    canvas.span(y: track.y, from: track.x, to: track.x + track.width, LightBoardLayout.trackLevel)
    canvas.span(y: track.y, from: slot.x, to: slot.x + slot.width, LightBoardLayout.barLevel)
    canvas.copyRow(
      track.y, to: (track.y + 1)..<(track.y + track.height), from: track.x, to: track.x + track.width)

    let word = LightBoardCode.word(microseconds: captureTime / 1_000, step: step)
    let last = LightBoardLayout.codeColumns - 1
    let white = LightBoardLayout.whiteLevel
    let black = LightBoardLayout.blackLevel
    for row in 0..<LightBoardLayout.codeRows {
      let leftWhite = LightBoardLayout.leftReferenceIsWhite(row: row)
      let first = layout.codeBlock(row: row, column: 0)
      let y = first.y
      guard first.height > 0 else { continue }
      canvas.span(y: y, from: first.x, to: first.x + first.width, leftWhite ? white : black)
      for column in 1..<last {
        let block = layout.codeBlock(row: row, column: column)
        let one = LightBoardCode.bit(row * LightBoardLayout.dataColumns + column - 1, of: word)
        canvas.span(y: y, from: block.x, to: block.x + block.width, one ? white : black)
      }
      let end = layout.codeBlock(row: row, column: last)
      canvas.span(y: y, from: end.x, to: end.x + end.width, leftWhite ? black : white)
      canvas.copyRow(y, to: (y + 1)..<(y + first.height), from: first.x, to: end.x + end.width)
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
    // memset (through SystemCalls), not `update(repeating:count:)`: in a debug build the generic
    // one is a loop per byte, which made the light-board feeder (bench, a debug build by default)
    // spend 12 ms of CPU per 640×480 frame under the VM's emulation; memset is libc's at any
    // optimisation.
    RawMemory.fill(base + y * bytesPerRow + x0, with: value, count: x1 - x0)
  }

  /// Copies columns `from ..< to` of row `y` into the same columns of each row of `rows`,
  /// clipped to the image.
  func copyRow(_ y: Int, to rows: Range<Int>, from: Int, to: Int) {
    guard y >= 0, y < height else { return }
    let x0 = max(0, from)
    let x1 = min(width, to)
    guard x1 > x0 else { return }
    let first = max(0, rows.lowerBound)
    let end = min(height, rows.upperBound)
    guard end > first else { return }
    let source = base + y * bytesPerRow + x0
    for target in first..<end {
      // The standard library's raw copy: a memmove, not a generic loop, in a debug build too.
      UnsafeMutableRawPointer(base + target * bytesPerRow + x0).copyMemory(from: source, byteCount: x1 - x0)
    }
  }

  /// Fills `rect`, clipped to the image.
  func fill(_ rect: LightBoardRect, _ value: UInt8) {
    for y in rect.y..<(rect.y + max(0, rect.height)) {
      span(y: y, from: rect.x, to: rect.x + rect.width, value)
    }
  }
}
