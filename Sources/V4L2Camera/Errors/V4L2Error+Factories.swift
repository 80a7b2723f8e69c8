import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

extension V4L2Error {
  /// The path does not exist.
  static func noSuchDevice(_ path: String, errno: Errno? = .noSuchFile, operation: String? = "open")
    -> V4L2Error
  {
    V4L2Error(
      code: .noSuchDevice,
      message: "no such device; list the cameras with `bench doctor` (is the camera plugged in?)",
      errno: errno, operation: operation, devicePath: path)
  }

  /// libv4l2 cannot be loaded (`ELIBACC` from the kernel seam's `open`): names the package.
  static func libraryMissing(_ path: String, errno: Errno) -> V4L2Error {
    V4L2Error(
      code: .libraryMissing,
      message:
        "V4L2 cameras need libv4l2 (\(LibV4L2.soname)), which is not installed; install the package"
        + " \(LibV4L2.package): sudo apt-get install \(LibV4L2.package) (or scripts/install-deps --v4l2)",
      errno: errno, operation: "dlopen \(LibV4L2.soname)", devicePath: path)
  }

  /// The node is not a video capture device (a metadata node, an output-only device, a file).
  static func notACaptureDevice(_ path: String, why: String) -> V4L2Error {
    V4L2Error(
      code: .noSuchDevice,
      message: "not a V4L2 video capture device (\(why)); list the cameras with `bench doctor`",
      devicePath: path)
  }

  /// `EACCES`/`EPERM` opening `path`; names the owning group and says how to join it.
  static func permissionDenied(_ path: String, errno: Errno, node: V4L2NodeInfo?, groupName: String?)
    -> V4L2Error
  {
    var message = "permission denied"
    if let node {
      let group = groupName ?? "gid \(node.groupID)"
      message += " (node is c\(node.permissionString), group '\(group)')"
      if node.permissions & 0o060 != 0, node.groupID != 0 {
        message += "; add your user to the group: sudo usermod -aG \(group) \"$USER\", then log in again"
      } else {
        message += "; the group may not open it: run as root or fix the node's udev rule"
      }
    }
    return V4L2Error(
      code: .permissionDenied, message: message, errno: errno, operation: "open", devicePath: path)
  }

  /// `EBUSY`: another process holds the device.
  static func busy(_ path: String, operation: String) -> V4L2Error {
    V4L2Error(
      code: .busy,
      message: "device busy: another process is using it; close it (find it with `fuser \(path)`) and retry",
      errno: Errno(rawValue: EBUSY), operation: operation, devicePath: path)
  }

  /// The device vanished while streaming.
  static func deviceGone(_ path: String, errno: Errno, operation: String) -> V4L2Error {
    V4L2Error(
      code: .deviceGone,
      message: "device disappeared while streaming (unplugged or driver reset); reconnect it and restart",
      errno: errno, operation: operation, devicePath: path)
  }

  /// The device offers nothing this backend can turn into luma; lists what it has.
  static func formatUnsupported(
    _ path: String, wanted: String, available: [String], errno: Errno? = nil,
    operation: String? = nil
  ) -> V4L2Error {
    let list = available.isEmpty ? "none" : available.joined(separator: ", ")
    return V4L2Error(
      code: .formatUnsupported,
      message: "format \(wanted) unsupported; the device offers: \(list)",
      errno: errno, operation: operation, devicePath: path)
  }

  /// A call in the wrong state.
  static func invalidState(_ path: String, _ message: String) -> V4L2Error {
    V4L2Error(code: .invalidState, message: message, devicePath: path)
  }

  /// Maps a failed call's errno to an error, by what the errno means for V4L2 (`streaming` says
  /// whether buffers were flowing: `ENODEV`/`EIO` then mean the device is gone).
  static func from(errno: Errno, operation: String, path: String, streaming: Bool) -> V4L2Error {
    switch errno.rawValue {
    case EBUSY:
      return .busy(path, operation: operation)
    case ENODEV, EIO, ENXIO:
      if streaming { return .deviceGone(path, errno: errno, operation: operation) }
      if errno.rawValue != EIO { return .noSuchDevice(path, errno: errno, operation: operation) }
      return V4L2Error(
        code: .systemCallFailed, message: "\(operation) failed: input/output error", errno: errno,
        operation: operation, devicePath: path)
    case EACCES, EPERM:
      return V4L2Error(
        code: .permissionDenied, message: "permission denied", errno: errno, operation: operation,
        devicePath: path)
    default:
      return V4L2Error(
        code: .systemCallFailed, message: "\(operation) failed", errno: errno, operation: operation,
        devicePath: path)
    }
  }
}
