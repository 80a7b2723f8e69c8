/// A board inside bars: an app that keeps the frame's aspect in a window of another shape (mpv,
/// SDL's ffplay in a tiled Wayland window or an Xwayland window the compositor resized) draws it
/// scaled with uniform dark bars on two sides, and a client smaller than what the probe reads is
/// surrounded by the compositor's background. The layout's fractions are then of the picture
/// inside the bars, not of the image.
extension LightBoardDecoder {
  /// The brightest bar looked for, in luma levels: black bars (0–16) and sway's grey background
  /// (0x40), not the board's scene, whose edges are at least 50 (the ground ≈ 60–90, the sky
  /// 120–170).
  static let brightestBar = 72
  /// How far a bar's samples may be from the bar's level, in luma levels.
  static let barTolerance = 8
  /// Samples read across each line (a column or a row) to tell a bar from the picture.
  static let barSamples = 8

  /// The picture inside uniform bars at `image`'s edges, or nil when there are none or it is
  /// too small to hold a board. The bar's level is the darkest corner's (when at most
  /// ``brightestBar``); a column (then a row, across the columns left) is a bar while each of
  /// its ``barSamples`` samples is within ``barTolerance`` of it. At most 8 reads a line, and
  /// only the bars' lines and the first line of the picture on each side are read.
  static func insideBars(_ image: LumaImage) -> LumaImage? {
    let width = image.width
    let height = image.height
    guard width >= LightBoardLayout.minimumWidth, height >= LightBoardLayout.minimumHeight,
      image.bytesPerRow >= width
    else { return nil }
    let bar = min(
      min(Int(image[0, 0]), Int(image[width - 1, 0])),
      min(Int(image[0, height - 1]), Int(image[width - 1, height - 1])))
    guard bar <= brightestBar else { return nil }
    var left = 0
    var right = width
    while left < right, columnIsBar(image, x: left, level: bar) { left += 1 }
    while right > left, columnIsBar(image, x: right - 1, level: bar) { right -= 1 }
    var top = 0
    var bottom = height
    while top < bottom, rowIsBar(image, y: top, columns: left..<right, level: bar) { top += 1 }
    while bottom > top, rowIsBar(image, y: bottom - 1, columns: left..<right, level: bar) { bottom -= 1 }
    guard left > 0 || right < width || top > 0 || bottom < height,
      right - left >= LightBoardLayout.minimumWidth, bottom - top >= LightBoardLayout.minimumHeight
    else { return nil }
    return LumaImage(
      base: image.base + top * image.bytesPerRow + left, width: right - left, height: bottom - top,
      bytesPerRow: image.bytesPerRow)
  }

  /// Whether column `x`'s samples, spread over the image's height, are all at the bar's level.
  static func columnIsBar(_ image: LumaImage, x: Int, level: Int) -> Bool {
    for k in 0..<barSamples {
      let y = (2 * k + 1) * image.height / (2 * barSamples)
      guard abs(Int(image[x, y]) - level) <= barTolerance else { return false }
    }
    return true
  }

  /// Whether row `y`'s samples, spread over `columns`, are all at the bar's level.
  static func rowIsBar(_ image: LumaImage, y: Int, columns: Range<Int>, level: Int) -> Bool {
    guard !columns.isEmpty else { return true }
    for k in 0..<barSamples {
      let x = columns.lowerBound + (2 * k + 1) * columns.count / (2 * barSamples)
      guard abs(Int(image[x, y]) - level) <= barTolerance else { return false }
    }
    return true
  }
}
