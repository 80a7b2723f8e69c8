/// A pixel format a device offers (`VIDIOC_ENUM_FMT`), with its sizes and rates.
public struct V4L2PixelFormat: Sendable, Hashable, CustomStringConvertible {
  /// The four-character code, e.g. `YUYV`.
  public var fourCC: String
  /// The driver's description, e.g. `YUYV 4:2:2`.
  public var name: String
  /// Whether libv4l2 converts to it in user space (the device does not produce it;
  /// `V4L2_FMT_FLAG_EMULATED`).
  public var isEmulated: Bool
  /// The sizes, in the driver's order (`VIDIOC_ENUM_FRAMESIZES`).
  public var sizes: [V4L2FrameSize]

  /// Creates a format.
  public init(fourCC: String, name: String, isEmulated: Bool = false, sizes: [V4L2FrameSize] = []) {
    self.fourCC = fourCC
    self.name = name
    self.isEmulated = isEmulated
    self.sizes = sizes
  }

  /// `YUYV (YUYV 4:2:2): 640x480 (1-25 fps), …`.
  public var description: String {
    let head = "\(fourCC)\(isEmulated ? " [converted by libv4l2]" : "")"
    return sizes.isEmpty ? head : head + ": " + sizes.map(\.description).joined(separator: ", ")
  }
}
