import Foundation

/// Writes a YUV4MPEG2 (Y4M) stream: `C420jpeg` with the luma of each frame and neutral chroma (128),
/// which ffmpeg and mpv play as grey video.
///
/// Header: `YUV4MPEG2 W<w> H<h> F<num>:<den> Ip A1:1 C420jpeg\n`; each frame is `FRAME\n` followed by
/// the Y plane (`w*h` bytes) and the Cb and Cr planes (`ceil(w/2)*ceil(h/2)` bytes each).
/// Not thread-safe: `MovieFileOutput` uses it from its own serial queue.
struct Y4MWriter {
  let handle: FileHandle
  let path: String
  let width: Int
  let height: Int
  private(set) var frames = 0

  /// Creates (or truncates) `path` and writes the header. `frameRate` is frames per second.
  init(path: String, width: Int, height: Int, frameRate: Double) throws(CaptureError) {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CaptureError(
        .fileWriteFailed, "cannot create the movie file \(path); check that its folder exists and is writable"
      )
    }
    self.handle = handle
    self.path = path
    self.width = width
    self.height = height
    let (num, den) = Y4MWriter.rational(frameRate)
    try write(Data("YUV4MPEG2 W\(width) H\(height) F\(num):\(den) Ip A1:1 C420jpeg\n".utf8))
  }

  /// A frame rate as the `F` field's fraction: whole rates as `N:1`, others in thousandths.
  static func rational(_ frameRate: Double) -> (Int, Int) {
    guard frameRate.isFinite, frameRate > 0 else { return (30, 1) }
    if frameRate.rounded() == frameRate { return (Int(frameRate), 1) }
    return (Int((frameRate * 1000).rounded()), 1000)
  }

  /// Appends one frame. A frame of another size than the header's is rejected.
  mutating func append(_ frame: VideoFrame) throws(CaptureError) {
    guard frame.width == width, frame.height == height else {
      throw CaptureError(
        .fileWriteFailed,
        "frame \(frame.width)x\(frame.height) does not match the movie's \(width)x\(height); restart the recording"
      )
    }
    let chroma = ((width + 1) / 2) * ((height + 1) / 2)
    var data = Data(capacity: 6 + width * height + 2 * chroma)
    data.append(contentsOf: Array("FRAME\n".utf8))
    frame.pixels.withUnsafeBufferPointer { src in
      for row in 0..<height {
        let start = row * frame.bytesPerRow
        data.append(UnsafeBufferPointer(rebasing: src[start..<(start + width)]))
      }
    }
    data.append(Data(repeating: 128, count: 2 * chroma))
    try write(data)
    frames += 1
  }

  /// Flushes and closes the file.
  func close() throws(CaptureError) {
    do {
      try handle.synchronize()
      try handle.close()
    } catch {
      throw CaptureError(.fileWriteFailed, "closing the movie file \(path) failed", underlying: error)
    }
  }

  private func write(_ data: Data) throws(CaptureError) {
    do {
      try handle.write(contentsOf: data)
    } catch {
      throw CaptureError(
        .fileWriteFailed, "writing the movie file \(path) failed; check free disk space", underlying: error)
    }
  }
}
