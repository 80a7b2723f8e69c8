import CV4L2Shims

/// Reads a capture node's current format and frame interval from a descriptor of its own, while
/// another process may be streaming from it (V4L2 lets any opener read the format): how a
/// writer into vivid's looped output follows whatever format the capturing app chose. It asks the
/// driver itself (``V4L2Kernel/direct`` by default): libv4l2 would answer from the format it
/// cached when this descriptor was opened.
public final class V4L2FormatWatch: Sendable {
  /// The capture node, e.g. `/dev/video1`.
  public let path: String
  let handle: V4L2Handle

  /// Opens `path` (`open(2)`, not libv4l2, with the default kernel) and checks `VIDIOC_QUERYCAP` for video capture with streaming.
  /// - Throws: `V4L2Error` (`no_such_device`, `permission_denied`, …).
  public init(path: String, kernel: V4L2Kernel = .direct) throws(V4L2Error) {
    let handle = try V4L2Handle.open(path, kernel: kernel)
    do throws(V4L2Error) {
      _ = try handle.requireCaptureDevice()
    } catch {
      handle.close()
      throw error
    }
    self.path = path
    self.handle = handle
  }

  deinit { handle.close() }

  /// The capture format now, or nil when the driver does not say. The corresponding ioctl is
  /// `VIDIOC_G_FMT` (`V4L2_BUF_TYPE_VIDEO_CAPTURE`).
  public func currentFormat() -> V4L2FrameLayout? {
    var format = v4l2_format()
    format.type = V4L2Handle.captureType
    guard handle.ioctlStatus(.getFormat, &format) == 0 else { return nil }
    let pix = format.fmt.pix
    guard pix.width > 0, pix.height > 0, pix.width <= V4L2Camera.maxDimension,
      pix.height <= V4L2Camera.maxDimension
    else { return nil }
    return V4L2FrameLayout(pix)
  }

  /// Sets the capture format (`VIDIOC_S_FMT`) to `layout`'s pixel format and size, as an app
  /// would; the driver's answer. Fails with `EBUSY` while anyone holds buffers on the node.
  /// - Throws: `V4L2Error` from the ioctl.
  @discardableResult
  public func setFormat(like layout: V4L2FrameLayout) throws(V4L2Error) -> V4L2FrameLayout {
    var format = layout.formatRequest(type: V4L2Handle.captureType)
    try handle.ioctl(.setFormat, &format)
    return V4L2FrameLayout(format.fmt.pix)
  }

  /// The capture frame rate now, frames per second, or nil when the driver does not say. The
  /// corresponding ioctl is `VIDIOC_G_PARM`.
  public func frameRate() -> Double? {
    var parm = v4l2_streamparm()
    parm.type = V4L2Handle.captureType
    guard handle.ioctlStatus(.getParameters, &parm) == 0 else { return nil }
    let t = parm.parm.capture.timeperframe
    return t.numerator > 0 && t.denominator > 0 ? Double(t.denominator) / Double(t.numerator) : nil
  }
}
