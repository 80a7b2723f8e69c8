extension V4L2Camera {
  /// The V4L2 video nodes (`/dev/video*`), each with card, driver, bus and every pixel format
  /// with its sizes and rates, and whether this user may open it (and why not).
  ///
  /// Nodes that open but are not video capture devices with streaming (a UVC camera's metadata
  /// node, an output device) are left out; nodes that cannot be opened are listed with the reason.
  public static func enumerate(kernel: V4L2Kernel = .system) -> [V4L2DeviceDescription] {
    kernel.videoNodes().compactMap { path in describe(path: path, kernel: kernel) }
  }

  /// One node's description, or `nil` when it opens but is not a capture device.
  static func describe(path: String, kernel: V4L2Kernel) -> V4L2DeviceDescription? {
    let handle: V4L2Handle
    do {
      handle = try V4L2Handle.open(path, kernel: kernel)
    } catch {
      return V4L2DeviceDescription(path: path, mayOpen: false, problem: error.description)
    }
    defer { handle.close() }
    guard let cap = try? handle.queryCapability() else {
      return V4L2DeviceDescription(path: path, mayOpen: true, problem: "\(path): VIDIOC_QUERYCAP failed")
    }
    guard cap.canCapture, cap.canStream else { return nil }
    return V4L2DeviceDescription(
      path: path, card: cap.card, driver: cap.driver, bus: cap.bus, isCaptureDevice: true,
      formats: handle.describeFormats(), mayOpen: true)
  }
}
