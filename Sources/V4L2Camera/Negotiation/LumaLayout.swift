/// Where the Y (luma) samples sit in a buffer of a pixel format this backend can stream.
///
/// libv4l2 converts to YUV 4:2:0 (`YU12`) from anything it understands (MJPEG, Bayer, RGB), so
/// a device without a luma-bearing format still works when its emulated formats are listed.
enum LumaLayout: Sendable, Hashable {
  /// One byte per pixel: `GREY`, and the Y plane of planar/semi-planar formats.
  case plane
  /// Packed 4:2:2 with Y in every other byte starting at `offset` (`YUYV`/`YVYU`: 0, `UYVY`/`VYUY`: 1).
  case packed(offset: Int)

  /// The luma formats, best first: cheapest to turn into 8-bit luma.
  static let preference: [String] = [
    "GREY", "YUYV", "YVYU", "UYVY", "VYUY", "NV12", "NV21", "YU12", "YV12",
    "NV16", "NV61", "422P",
  ]

  /// The layout of `fourCC`, or `nil` when this backend cannot take luma from it.
  init?(fourCC: String) {
    switch fourCC {
    case "GREY", "NV12", "NV21", "YU12", "YV12", "NV16", "NV61", "422P": self = .plane
    case "YUYV", "YVYU": self = .packed(offset: 0)
    case "UYVY", "VYUY": self = .packed(offset: 1)
    default: return nil
    }
  }

  /// Copies the `width × height` luma of a buffer with `bytesPerLine` bytes per row into a
  /// tightly packed array (`width` bytes per row).
  func extract(from source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: width * height)
    extract(from: source, width: width, height: height, bytesPerLine: bytesPerLine, into: &out)
    return out
  }

  /// Copies the luma into `destination` (at least `width * height` bytes; reused for stills).
  /// Bytes the source does not cover are set to 0.
  func extract(
    from source: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerLine: Int,
    into destination: inout [UInt8]
  ) {
    precondition(destination.count >= width * height, "the destination holds the frame")
    destination.withUnsafeMutableBytes { out in
      switch self {
      case .plane:
        for row in 0..<height {
          let start = row * bytesPerLine
          let available = max(0, min(width, source.count - start))
          let dst = row * width
          if available > 0 {
            UnsafeMutableRawBufferPointer(rebasing: out[dst..<(dst + available)])
              .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + available)]))
          }
          for x in available..<width { out[dst + x] = 0 }
        }
      case .packed(let offset):
        for row in 0..<height {
          let start = row * bytesPerLine + offset
          let dst = row * width
          for x in 0..<width {
            let i = start + 2 * x
            out[dst + x] = i < source.count ? source[i] : 0
          }
        }
      }
    }
  }
}
