import CV4L2Shims
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

// The fake camera's controls and DV timings: `VIDIOC_QUERY_EXT_CTRL` (`VIDIOC_QUERYCTRL` is
// `ENOTTY`, as for a driver that has only the extended query), `VIDIOC_G_CTRL`/`S_CTRL` and
// `VIDIOC_G_DV_TIMINGS`.
extension FakeV4L2Kernel {
  /// `VIDIOC_QUERY_EXT_CTRL` and `VIDIOC_QUERYCTRL`: the control with the asked id, or the next
  /// one with `V4L2_CTRL_FLAG_NEXT_CTRL`; `EINVAL` when there is none.
  func answerControlQuery(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: State) -> Int32 {
    let raw = argument.assumingMemoryBound(to: UInt32.self).pointee
    let next = raw & UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) != 0
    let id = raw & ~(UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) | UInt32(V4L2_CTRL_FLAG_NEXT_COMPOUND))
    guard let c = s.config.controls.first(where: { next ? $0.id > id : $0.id == id }) else {
      return -EINVAL
    }
    if request == .queryControl { return -ENOTTY }
    let q = argument.assumingMemoryBound(to: v4l2_query_ext_ctrl.self)
    q.pointee.id = c.id
    q.pointee.type = c.type
    write(c.name, into: &q.pointee.name)
    q.pointee.minimum = c.minimum
    q.pointee.maximum = c.maximum
    q.pointee.step = 1
    q.pointee.default_value = c.defaultValue
    return 0
  }

  /// `VIDIOC_S_CTRL` (`ERANGE` outside the control's range) and `VIDIOC_G_CTRL`: the value set,
  /// or the default.
  func answerControl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32 {
    let c = argument.assumingMemoryBound(to: v4l2_control.self)
    guard let control = s.config.controls.first(where: { $0.id == c.pointee.id }) else { return -EINVAL }
    if request == .setControl {
      guard Int64(c.pointee.value) >= control.minimum, Int64(c.pointee.value) <= control.maximum else {
        return -ERANGE
      }
      s.controlValues[control.id] = c.pointee.value
    }
    c.pointee.value = s.controlValues[control.id] ?? Int32(control.defaultValue)
    return 0
  }

  /// `VIDIOC_G_DV_TIMINGS`: `config.dvTimings`' size, or `ENODATA`.
  func answerDVTimings(_ argument: UnsafeMutableRawPointer, _ s: State) -> Int32 {
    guard let size = s.config.dvTimings else { return -ENODATA }
    let t = argument.assumingMemoryBound(to: v4l2_dv_timings.self)
    t.pointee.type = UInt32(V4L2_DV_BT_656_1120)
    t.pointee.bt.width = UInt32(size.width)
    t.pointee.bt.height = UInt32(size.height)
    return 0
  }
}
