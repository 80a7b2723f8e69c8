/// Reads the light board back: 4 pixels per block (inside its central 40 %), 2 per bar slot,
/// about 350 pixel reads in all, integer arithmetic, no allocation. When no board fills the
/// image, the picture inside uniform dark bars at its edges is read as well (a frame an app
/// scaled into a window of another shape; ``insideBars(_:)``): 8 more reads per line of bar.
///
/// A reading is accepted only when every check passes, so a wrong time is never returned:
/// 1. each row's two reference blocks differ by at least ``minimumContrast`` luma levels, with
///    the white one on the side the layout says;
/// 2. every sample of every block lies clearly on one side of the row's threshold (at least 1/8
///    of the row's contrast away from it) and a block's samples agree;
/// 3. the 3-bit marker is `101` and the CRC-16 over time, marker and step matches;
/// 4. the bar is in the slot the code says and is clearly brighter than every other slot.
enum LightBoardDecoder {
  /// The smallest white − black difference of a row's reference blocks, in luma levels.
  static let minimumContrast = 48

  static func decode(_ image: LumaImage) -> LightBoardReading {
    let whole = decodeFilling(image)
    guard whole == .noBoard, let inside = insideBars(image) else { return whole }
    return decodeFilling(inside)
  }

  /// Decodes a board that fills `image`.
  static func decodeFilling(_ image: LumaImage) -> LightBoardReading {
    let layout = LightBoardLayout(width: image.width, height: image.height)
    guard layout.isUsable, image.bytesPerRow >= image.width else { return .noBoard }
    var high: UInt64 = 0
    var low: UInt64 = 0
    var bandContrast = Int.max
    let last = LightBoardLayout.codeColumns - 1
    for row in 0..<LightBoardLayout.codeRows {
      let leftWhite = LightBoardLayout.leftReferenceIsWhite(row: row)
      let leftBlock = sampleBlock(image, layout.codeBlock(row: row, column: 0))
      let rightBlock = sampleBlock(image, layout.codeBlock(row: row, column: last))
      let white = leftWhite ? leftBlock : rightBlock
      let black = leftWhite ? rightBlock : leftBlock
      let contrast4 = white.sum - black.sum  // 4 × (white − black)
      guard contrast4 >= 4 * minimumContrast else { return .noBoard }
      bandContrast = min(bandContrast, contrast4)
      let mid8 = white.sum + black.sum  // 8 × threshold
      let margin = contrast4 / 4  // 8 × contrast / 8
      guard classify(white, mid8: mid8, margin: margin) == 1, classify(black, mid8: mid8, margin: margin) == 0
      else { return .noBoard }
      for column in 1..<last {
        let bit = classify(
          sampleBlock(image, layout.codeBlock(row: row, column: column)), mid8: mid8, margin: margin)
        guard bit >= 0 else { return .noBoard }
        high = (high << 1) | (low >> 63)
        low = (low << 1) | UInt64(bit)
      }
    }
    let payload = (high << 48) | (low >> 16)
    let check = UInt16(truncatingIfNeeded: low)
    guard (payload >> 5) & 0b111 == LightBoardCode.marker, LightBoardCode.crc16(payload56: payload) == check
    else {
      return .noBoard
    }
    let step = Int(payload & 31)
    guard barIsAt(step, image, layout, contrast4: bandContrast) else { return .noBoard }
    return .board(captureTimeMicroseconds: payload >> 8, barStep: step)
  }

  /// Four samples of a block, at ±1/5 of its size around its centre.
  struct Samples {
    var a: Int
    var b: Int
    var c: Int
    var d: Int
    var sum: Int { a + b + c + d }
  }

  @inline(__always)
  static func sampleBlock(_ image: LumaImage, _ rect: LightBoardRect) -> Samples {
    let dx = rect.width / 5
    let dy = rect.height / 5
    let cx = rect.midX
    let cy = rect.midY
    return Samples(
      a: Int(image[cx - dx, cy - dy]), b: Int(image[cx + dx, cy - dy]),
      c: Int(image[cx - dx, cy + dy]), d: Int(image[cx + dx, cy + dy]))
  }

  /// 1 when all four samples are clearly above the threshold, 0 when all clearly below, −1 otherwise.
  @inline(__always)
  static func classify(_ s: Samples, mid8: Int, margin: Int) -> Int {
    let above =
      8 &* s.a >= mid8 &+ margin && 8 &* s.b >= mid8 &+ margin && 8 &* s.c >= mid8 &+ margin
      && 8 &* s.d >= mid8 &+ margin
    if above { return 1 }
    let below =
      8 &* s.a <= mid8 &- margin && 8 &* s.b <= mid8 &- margin && 8 &* s.c <= mid8 &- margin
      && 8 &* s.d <= mid8 &- margin
    return below ? 0 : -1
  }

  /// Whether slot `step` holds the bar: its two samples exceed every other slot's by half the
  /// code band's contrast.
  static func barIsAt(_ step: Int, _ image: LumaImage, _ layout: LightBoardLayout, contrast4: Int) -> Bool {
    @inline(__always) func slotSum(_ i: Int) -> Int {
      let r = layout.barSlot(i)
      let dy = r.height / 5
      return Int(image[r.midX, r.midY - dy]) + Int(image[r.midX, r.midY + dy])
    }
    let bar = slotSum(step)
    let needed = contrast4 / 4  // 2 samples × contrast / 2
    for i in 0..<LightBoardLayout.barPeriod where i != step {
      guard bar - slotSum(i) >= needed else { return false }
    }
    return true
  }
}
