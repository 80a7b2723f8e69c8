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
  /// for a layout other than 32-bit RGB (see ``convert(_:format:width:height:stride:yInverted:region:scale:into:)``).
  /// `region`: the part of the output to read (the app's window), in the output's pixels, top
  /// down; nil for the whole output.
  static func convert(
    _ frame: WaylandScreencopy.Frame, region: WaylandRegion? = nil, scale: Int,
    into out: UnsafeMutableBufferPointer<UInt8>
  )
    -> Bool
  {
    convert(
      frame.pixels, format: frame.format, width: frame.width, height: frame.height, stride: frame.stride,
      yInverted: frame.yInverted, region: region, scale: scale, into: out)
  }

  /// Converts `height` rows of `width` pixels (`stride` bytes apart, bottom up when `yInverted`)
  /// at 1/`scale` into `out` (`region.width/scale` × `region.height/scale`, packed): only
  /// `region` (top down, in the output's pixels; the whole output when nil). Returns false for
  /// a layout other than 32-bit RGB — `wl_shm` ARGB8888 or XRGB8888 (red in bits 16–23 of the
  /// little-endian word) or the DRM XBGR8888 and ABGR8888 — for buffers too small, or for a
  /// region not inside the output.
  static func convert(
    _ pixels: UnsafeRawBufferPointer, format: UInt32, width: Int, height: Int, stride: Int, yInverted: Bool,
    region: WaylandRegion? = nil, scale: Int, into out: UnsafeMutableBufferPointer<UInt8>
  ) -> Bool {
    let redLow: Bool
    switch format {
    case 0, 1: redLow = false
    case let format where redLowFormats.contains(format): redLow = true
    default: return false
    }
    let area = region ?? WaylandRegion(x: 0, y: 0, width: width, height: height)
    let outWidth = area.width / max(1, scale)
    let outHeight = area.height / max(1, scale)
    guard scale >= 1, area.isInside(width: width, height: height), let source = pixels.baseAddress,
      let destination = out.baseAddress, out.count >= outWidth * outHeight, pixels.count >= stride * height,
      stride >= width * 4
    else { return false }
    let (redShift, blueShift): (UInt32, UInt32) = redLow ? (0, 16) : (16, 0)
    for y in 0..<outHeight {
      let imageRow = area.y + y * scale
      let sourceRow = yInverted ? height - 1 - imageRow : imageRow
      let row = source + sourceRow * stride + area.x * 4
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

/// A rectangle of a Wayland output, in its pixels, top down: the part the probe analyses (the
/// app's window, `WaylandWindow`'s position and size).
struct WaylandRegion: Sendable, Hashable {
  /// The left edge.
  var x: Int
  /// The top edge.
  var y: Int
  /// The width.
  var width: Int
  /// The height.
  var height: Int

  /// Whether the region is not empty and lies wholly inside a `width`×`height` output.
  func isInside(width outputWidth: Int, height outputHeight: Int) -> Bool {
    x >= 0 && y >= 0 && width > 0 && height > 0 && x <= outputWidth - width && y <= outputHeight - height
  }
}
