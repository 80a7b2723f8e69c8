import CV4L2Shims

/// A single-planar V4L2 image format as the driver confirmed it (`v4l2_pix_format`): what a
/// writer needs to fill a buffer of that format.
public struct V4L2FrameLayout: Sendable, Hashable, CustomStringConvertible {
  /// The four-character pixel format code, e.g. `YUYV`.
  public var fourCC: String
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bytes per line of the first plane (`bytesperline`).
  public var bytesPerLine: Int
  /// Bytes of a whole frame, every plane (`sizeimage`).
  public var sizeImage: Int

  /// Creates a layout.
  public init(fourCC: String, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int) {
    self.fourCC = fourCC
    self.width = width
    self.height = height
    self.bytesPerLine = bytesPerLine
    self.sizeImage = sizeImage
  }

  /// `640x480 YUYV`.
  public var description: String { "\(width)x\(height) \(fourCC)" }
}

extension V4L2FrameLayout {
  /// The layout the driver confirmed in `pix`.
  init(_ pix: v4l2_pix_format) {
    self.init(
      fourCC: FourCC.text(pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
      bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage))
  }

  /// A `VIDIOC_S_FMT` request of `type` for this pixel format and size, progressive.
  func formatRequest(type: UInt32) -> v4l2_format {
    var format = v4l2_format()
    format.type = type
    format.fmt.pix.width = UInt32(width)
    format.fmt.pix.height = UInt32(height)
    format.fmt.pix.pixelformat = FourCC.code(fourCC)
    format.fmt.pix.field = UInt32(V4L2_FIELD_NONE.rawValue)
    return format
  }
}
