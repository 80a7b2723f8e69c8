import SystemCalls

/// Writes a YUV4MPEG2 (Y4M) stream: `C420jpeg` with the luma of each frame and neutral chroma (128),
/// which ffmpeg and mpv play as grey video.
///
/// Header: `YUV4MPEG2 W<w> H<h> F<num>:<den> Ip A1:1 C420jpeg\n`; each frame is `FRAME\n` followed by
/// the Y plane (`w*h` bytes) and the Cb and Cr planes (`ceil(w/2)*ceil(h/2)` bytes each).
/// Not thread-safe: `MovieFileOutput` uses it from its own serial queue.
struct Y4MWriter {
  /// The open movie file; closed by ``close()`` or, for a writer dropped after an error, when the
  /// last copy of the writer goes away.
  final class File {
    let fd: Int32
    var isOpen = true

    init(fd: Int32) { self.fd = fd }

    deinit { if isOpen { FileDescriptorIO.close(fd) } }
  }

  let file: File
  let path: String
  let width: Int
  let height: Int
  private(set) var frames = 0

  /// Creates (or truncates) `path` and writes the header. `frameRate` is frames per second.
  init(path: String, width: Int, height: Int, frameRate: Double) throws(CaptureError) {
    do {
      file = File(fd: try FileSystem.createFile(atPath: path))
    } catch {
      throw CaptureError(
        .fileWriteFailed,
        "cannot create the movie file \(path); check that its folder exists and is writable",
        underlying: error)
    }
    self.path = path
    self.width = width
    self.height = height
    let (num, den) = Y4MWriter.rational(frameRate)
    try write(Array("YUV4MPEG2 W\(width) H\(height) F\(num):\(den) Ip A1:1 C420jpeg\n".utf8))
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
    var bytes: [UInt8] = []
    bytes.reserveCapacity(6 + width * height + 2 * chroma)
    bytes.append(contentsOf: "FRAME\n".utf8)
    frame.pixels.withUnsafeBufferPointer { src in
      for row in 0..<height {
        let start = row * frame.bytesPerRow
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: src[start..<(start + width)]))
      }
    }
    bytes.append(contentsOf: repeatElement(128, count: 2 * chroma))
    try write(bytes)
    frames += 1
  }

  /// Flushes and closes the file.
  func close() throws(CaptureError) {
    guard file.isOpen else { return }
    file.isOpen = false
    defer { FileDescriptorIO.close(file.fd) }
    do {
      try FileSystem.synchronize(file.fd)
    } catch {
      throw CaptureError(.fileWriteFailed, "closing the movie file \(path) failed", underlying: error)
    }
  }

  private func write(_ bytes: [UInt8]) throws(CaptureError) {
    do {
      try FileDescriptorIO.writeAll(file.fd, bytes)
    } catch {
      throw CaptureError(
        .fileWriteFailed, "writing the movie file \(path) failed; check free disk space", underlying: error)
    }
  }
}
