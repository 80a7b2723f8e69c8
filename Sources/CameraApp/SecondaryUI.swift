/// The UI that a fast camera shows only after preview runs: a thumbnail well with the last
/// photo and a mode picker. Both are real work (file read, decode, downscale, text layout),
/// which is why they must not sit on the launch path.
struct SecondaryUI: Sendable {
  let library: PhotoLibrary

  /// Modes the picker offers.
  static let modes = ["PHOTO", "VIDEO", "PORTRAIT", "PANO", "SLO-MO", "TIME-LAPSE", "DOCUMENT", "NIGHT"]

  /// Builds the thumbnail and the picker; returns what was built, for the trace.
  func build() -> (thumbnail: Bool, pickerPixels: Int) {
    let thumbnail = library.loadThumbnail(side: 96)
    let picker = Self.renderPicker(width: 640, height: 48)
    return (thumbnail != nil, picker.reduce(0) { $0 + ($1 > 0 ? 1 : 0) })
  }

  /// Lays out the mode labels in a strip: each letter a 5×7 block glyph from a bit pattern of
  /// its character code (a stand-in for font rasterisation, but real pixel work).
  static func renderPicker(width: Int, height: Int) -> [UInt8] {
    var strip = [UInt8](repeating: 0, count: width * height)
    var x = 8
    for mode in modes {
      for scalar in mode.unicodeScalars {
        let code = Int(scalar.value)
        for gy in 0..<7 {
          for gx in 0..<5 where (code &* 2_654_435_761 >> (gx + gy * 5 & 31)) & 1 == 1 {
            for dy in 0..<3 {
              for dx in 0..<2 {
                let px = x + gx * 2 + dx
                let py = 10 + gy * 3 + dy
                if px < width && py < height { strip[py * width + px] = 255 }
              }
            }
          }
        }
        x += 12
      }
      x += 16
    }
    return strip
  }
}
