import CV4L2Shims

#if canImport(Glibc)
  import Glibc
#endif

extension V4L2Camera {
  /// The device's controls, in id order. The corresponding ioctl is `VIDIOC_QUERY_EXT_CTRL`
  /// (with `V4L2_CTRL_FLAG_NEXT_CTRL`), or `VIDIOC_QUERYCTRL` on drivers without it.
  /// Control-class headings are left out.
  public func controls() throws(V4L2Error) -> [V4L2Control] {
    let handle = try state.withLock { (s) throws(V4L2Error) in try requireHandle(s) }
    let next = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND)
    var controls: [V4L2Control] = []
    var id: UInt32 = 0
    var extended = true
    for _ in 0..<1024 {
      if extended {
        var q = v4l2_query_ext_ctrl()
        q.id = id | next
        let status = handle.ioctlStatus(.queryExtendedControl, &q)
        if status == ENOTTY && controls.isEmpty {
          extended = false
          continue
        }
        guard status == 0 else { break }
        id = q.id
        controls.append(
          V4L2Control(
            id: q.id, name: cString(of: q.name), type: q.type, minimum: q.minimum, maximum: q.maximum,
            step: q.step, defaultValue: q.default_value, flags: q.flags))
      } else {
        var q = v4l2_queryctrl()
        q.id = id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        guard handle.ioctlStatus(.queryControl, &q) == 0 else { break }
        id = q.id
        controls.append(
          V4L2Control(
            id: q.id, name: cString(of: q.name), type: q.type, minimum: Int64(q.minimum),
            maximum: Int64(q.maximum), step: UInt64(max(0, q.step)), defaultValue: Int64(q.default_value),
            flags: q.flags))
      }
    }
    return controls.filter { $0.type != UInt32(V4L2_CTRL_TYPE_CTRL_CLASS.rawValue) }
  }

  /// The control named `name` (case-insensitive, e.g. `Horizontal Movement`), or `nil`.
  public func control(named name: String) throws(V4L2Error) -> V4L2Control? {
    try controls().first { $0.name.lowercased() == name.lowercased() }
  }

  /// The current value of control `id`. The corresponding ioctl is `VIDIOC_G_CTRL`.
  public func value(ofControl id: UInt32) throws(V4L2Error) -> Int32 {
    let handle = try state.withLock { (s) throws(V4L2Error) in try requireHandle(s) }
    var c = v4l2_control()
    c.id = id
    try handle.ioctl(.getControl, &c)
    return c.value
  }

  /// Sets control `id` to `value`. The corresponding ioctl is `VIDIOC_S_CTRL`.
  public func setValue(_ value: Int32, ofControl id: UInt32) throws(V4L2Error) {
    let handle = try state.withLock { (s) throws(V4L2Error) in try requireHandle(s) }
    var c = v4l2_control()
    c.id = id
    c.value = value
    try handle.ioctl(.setControl, &c)
  }
}
