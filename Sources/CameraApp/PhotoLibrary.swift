#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import LaunchContract
import SystemCalls

/// Where the app keeps its last photo: a PGM file (binary greyscale, any image viewer opens it).
///
/// The thumbnail well reads it back at launch; that read-and-decode is the kind of secondary UI
/// work that must wait until the camera runs.
package struct PhotoLibrary: Sendable {
  /// The folder: `$FIRSTFRAME_APP_STATE`, else `$XDG_RUNTIME_DIR/firstframe/app`, else
  /// `/tmp/firstframe-<uid>/app`. It is used only while it is this user's own (see `save`).
  let folder: String

  static func standard(environment: LaunchEnvironment) -> PhotoLibrary {
    if let dir = environment.appState {
      return PhotoLibrary(folder: dir)
    }
    return PhotoLibrary(folder: PrivateDirectory.perUserPath("firstframe") + "/app")
  }

  var lastPhotoPath: String { folder + "/last-photo.pgm" }

  /// Saves `photo` as the last photo (atomically: temporary file, then rename), in a folder that
  /// is this user's own: made with mode 0700 if missing, refused if another user owns it, others
  /// can write into it, or it is a symbolic link (`PrivateDirectory.prepare`).
  func save(_ photo: CapturedPhoto) throws {
    try PrivateDirectory.prepare(folder)
    var data = Array("P5\n\(photo.width) \(photo.height)\n255\n".utf8)
    data.append(contentsOf: photo.pixels.prefix(photo.width * photo.height))
    try FileSystem.replaceAtomically(data, atPath: lastPhotoPath)
  }

  /// Loads the last photo and shrinks it to a `side`×`side` thumbnail (area average), or nil
  /// (also when the folder is not this user's own).
  func loadThumbnail(side: Int) -> [UInt8]? {
    guard (try? PrivateDirectory.check(folder)) != nil,
      let data = FileSystem.readFile(atPath: lastPhotoPath)
    else { return nil }
    return Self.decodeThumbnail(pgm: data, side: side)
  }

  /// Decodes a binary PGM (P5, maxval 255) and area-averages it into `side`×`side`.
  package static func decodeThumbnail(pgm bytes: [UInt8], side: Int) -> [UInt8]? {
    var fields: [Int] = []
    var i = 2
    guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") else { return nil }
    while fields.count < 3 && i < bytes.count {
      while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
        i += 1
      }
      var v = 0
      var digits = 0
      while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, digits < 7 {
        v = v * 10 + Int(bytes[i] - 0x30)
        i += 1
        digits += 1
      }
      guard digits > 0 else { return nil }
      fields.append(v)
    }
    // A header cut short (the file ends inside it) has fewer than three numbers.
    guard fields.count == 3 else { return nil }
    i += 1
    let (w, h) = (fields[0], fields[1])
    guard w > 0, h > 0, fields[2] == 255, bytes.count - i >= w * h else { return nil }
    var thumb = [UInt8](repeating: 0, count: side * side)
    for ty in 0..<side {
      let y0 = ty * h / side
      let y1 = max(y0 + 1, (ty + 1) * h / side)
      for tx in 0..<side {
        let x0 = tx * w / side
        let x1 = max(x0 + 1, (tx + 1) * w / side)
        var sum = 0
        for y in y0..<y1 {
          let row = i + y * w
          for x in x0..<x1 { sum += Int(bytes[row + x]) }
        }
        thumb[ty * side + tx] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
      }
    }
    return thumb
  }
}
