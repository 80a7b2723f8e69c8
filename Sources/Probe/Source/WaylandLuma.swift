import WaylandClient

/// The Wayland probe's conversion of a screencopy frame to the detector's 8-bit luma, at the
/// size it analyses: rows top down whatever the copy's `y_invert`, every `scale`-th pixel of
/// every `scale`-th row (nearest pixel, as X11 reads a large window), Y = (77 R + 150 G +
/// 29 B + 128) / 256 as on X11, so a grey pixel reads back as its level.
enum WaylandLuma {
  /// `DRM_FORMAT_XBGR8888` and `DRM_FORMAT_ABGR8888` (`XB24`, `AB24`): red in the low byte.
  static let redLowFormats: Set<UInt32> = [0x3432_4258, 0x3432_4241]

  /// How many times smaller, in each dimension, an output of `width`×`height` is analysed: the
  /// largest whole number that keeps the image at least 320×180 (2 for 640×360 and 640×480,
  /// 4 for 1280×720), or 1 — the rule of X11's reduced reads.
  static func reducedScale(width: Int, height: Int) -> Int {
    max(1, min(width / 320, height / 180))
  }

  /// Converts `frame` at 1/`scale` into `out` (`width/scale` × `height/scale`, packed); false
  /// for a layout other than 32-bit RGB (see ``convert(_:format:width:height:stride:yInverted:scale:into:)``).
  static func convert(
    _ frame: WaylandScreencopy.Frame, scale: Int, into out: UnsafeMutableBufferPointer<UInt8>
  )
    -> Bool
  {
    convert(
      frame.pixels, format: frame.format, width: frame.width, height: frame.height, stride: frame.stride,
      yInverted: frame.yInverted, scale: scale, into: out)
  }

  /// Converts `height` rows of `width` pixels (`stride` bytes apart, bottom up when `yInverted`)
  /// at 1/`scale` into `out` (`width/scale` × `height/scale`, packed). Returns false for a
  /// layout other than 32-bit RGB — `wl_shm` ARGB8888 or XRGB8888 (red in bits 16–23 of the
  /// little-endian word) or the DRM XBGR8888 and ABGR8888 — or buffers too small.
  static func convert(
    _ pixels: UnsafeRawBufferPointer, format: UInt32, width: Int, height: Int, stride: Int, yInverted: Bool,
    scale: Int, into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    let redLow: Bool
    switch format {
    case 0, 1: redLow = false
    case let format where redLowFormats.contains(format): redLow = true
    default: return false
    }
    let outWidth = width / max(1, scale)
    let outHeight = height / max(1, scale)
    guard scale >= 1, let source = pixels.baseAddress, let destination = out.baseAddress,
      out.count >= outWidth * outHeight, pixels.count >= stride * height, stride >= width * 4
    else { return false }
    let (redShift, blueShift): (UInt32, UInt32) = redLow ? (0, 16) : (16, 0)
    for y in 0..<outHeight {
      let sourceRow = yInverted ? height - 1 - y * scale : y * scale
      let row = source + sourceRow * stride
      let target = destination + y * outWidth
      for x in 0..<outWidth {
        let p = row.loadUnaligned(fromByteOffset: 4 * x * scale, as: UInt32.self).littleEndian
        let sum =
          77 &* ((p >> redShift) & 0xff) &+ 150 &* ((p >> 8) & 0xff) &+ 29 &* ((p >> blueShift) & 0xff) &+ 128
        target[x] = UInt8(truncatingIfNeeded: sum >> 8)
      }
    }
    return true
  }
}
