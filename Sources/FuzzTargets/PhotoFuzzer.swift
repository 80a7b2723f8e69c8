import CameraApp

/// The photo (PGM) reader, as camera-app's thumbnail well reads the last photo from its state
/// folder (which anything running as the user can write). The first byte picks the thumbnail
/// side (1…64) and the mode: the rest is the file itself, or the width, height and grey level of
/// a well-formed file that the target writes, whose thumbnail must be that grey everywhere.
enum PhotoFuzzer {
  static func run(_ data: [UInt8]) -> [String] {
    var input = FuzzInput(data)
    let first = input.byte()
    let side = Int(first % 64) + 1
    let file: [UInt8]
    var grey: UInt8?
    if first & 0x80 == 0 {
      file = input.rest()
      if KnownHoles.pgmHeaderCutShort(file) { return [] }
    } else {
      let width = input.int(in: 1...300)
      let height = input.int(in: 1...300)
      grey = input.byte()
      file = Array("P5\n\(width) \(height)\n255\n".utf8) + [UInt8](repeating: grey!, count: width * height)
    }
    let thumbnail = PhotoLibrary.decodeThumbnail(pgm: file, side: side)
    if let thumbnail, thumbnail.count != side * side {
      return ["a \(side)×\(side) thumbnail of \(thumbnail.count) bytes"]
    }
    if let grey {
      guard let thumbnail else { return ["a well-formed photo was refused"] }
      if thumbnail.contains(where: { $0 != grey }) {
        return ["a uniform \(grey) photo has a non-uniform thumbnail"]
      }
    }
    return []
  }
}
