import CV4L2Shims

/// The V4L2 ioctls this backend issues, spelled as in the kernel headers (`VIDIOC_S_FMT`).
///
/// A fake kernel switches on these; the system kernel maps them to the request codes that
/// `CV4L2Shims` exports (Swift cannot import the `_IOWR` macros).
public enum V4L2Request: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// `VIDIOC_QUERYCAP`, argument `v4l2_capability`.
  case queryCapability = "VIDIOC_QUERYCAP"
  /// `VIDIOC_ENUM_FMT`, argument `v4l2_fmtdesc`.
  case enumerateFormat = "VIDIOC_ENUM_FMT"
  /// `VIDIOC_G_FMT`, argument `v4l2_format`.
  case getFormat = "VIDIOC_G_FMT"
  /// `VIDIOC_S_FMT`, argument `v4l2_format`.
  case setFormat = "VIDIOC_S_FMT"
  /// `VIDIOC_ENUM_FRAMESIZES`, argument `v4l2_frmsizeenum`.
  case enumerateFrameSizes = "VIDIOC_ENUM_FRAMESIZES"
  /// `VIDIOC_ENUM_FRAMEINTERVALS`, argument `v4l2_frmivalenum`.
  case enumerateFrameIntervals = "VIDIOC_ENUM_FRAMEINTERVALS"
  /// `VIDIOC_G_PARM`, argument `v4l2_streamparm`.
  case getParameters = "VIDIOC_G_PARM"
  /// `VIDIOC_S_PARM`, argument `v4l2_streamparm`.
  case setParameters = "VIDIOC_S_PARM"
  /// `VIDIOC_REQBUFS`, argument `v4l2_requestbuffers`.
  case requestBuffers = "VIDIOC_REQBUFS"
  /// `VIDIOC_QUERYBUF`, argument `v4l2_buffer`.
  case queryBuffer = "VIDIOC_QUERYBUF"
  /// `VIDIOC_QBUF`, argument `v4l2_buffer`.
  case queueBuffer = "VIDIOC_QBUF"
  /// `VIDIOC_DQBUF`, argument `v4l2_buffer`.
  case dequeueBuffer = "VIDIOC_DQBUF"
  /// `VIDIOC_STREAMON`, argument the buffer type (`Int32`).
  case streamOn = "VIDIOC_STREAMON"
  /// `VIDIOC_STREAMOFF`, argument the buffer type (`Int32`).
  case streamOff = "VIDIOC_STREAMOFF"
  /// `VIDIOC_QUERYCTRL`, argument `v4l2_queryctrl`.
  case queryControl = "VIDIOC_QUERYCTRL"
  /// `VIDIOC_QUERY_EXT_CTRL`, argument `v4l2_query_ext_ctrl`.
  case queryExtendedControl = "VIDIOC_QUERY_EXT_CTRL"
  /// `VIDIOC_G_CTRL`, argument `v4l2_control`.
  case getControl = "VIDIOC_G_CTRL"
  /// `VIDIOC_S_CTRL`, argument `v4l2_control`.
  case setControl = "VIDIOC_S_CTRL"
  /// `VIDIOC_G_DV_TIMINGS`, argument `v4l2_dv_timings`: an HDMI-style input's native size.
  case getDVTimings = "VIDIOC_G_DV_TIMINGS"

  /// The kernel's request code (`_IOWR('V', n, type)`), from `CV4L2Shims`.
  public var code: UInt {
    switch self {
    case .queryCapability: CV4L2Shims_VIDIOC_QUERYCAP
    case .enumerateFormat: CV4L2Shims_VIDIOC_ENUM_FMT
    case .getFormat: CV4L2Shims_VIDIOC_G_FMT
    case .setFormat: CV4L2Shims_VIDIOC_S_FMT
    case .enumerateFrameSizes: CV4L2Shims_VIDIOC_ENUM_FRAMESIZES
    case .enumerateFrameIntervals: CV4L2Shims_VIDIOC_ENUM_FRAMEINTERVALS
    case .getParameters: CV4L2Shims_VIDIOC_G_PARM
    case .setParameters: CV4L2Shims_VIDIOC_S_PARM
    case .requestBuffers: CV4L2Shims_VIDIOC_REQBUFS
    case .queryBuffer: CV4L2Shims_VIDIOC_QUERYBUF
    case .queueBuffer: CV4L2Shims_VIDIOC_QBUF
    case .dequeueBuffer: CV4L2Shims_VIDIOC_DQBUF
    case .streamOn: CV4L2Shims_VIDIOC_STREAMON
    case .streamOff: CV4L2Shims_VIDIOC_STREAMOFF
    case .queryControl: CV4L2Shims_VIDIOC_QUERYCTRL
    case .queryExtendedControl: CV4L2Shims_VIDIOC_QUERY_EXT_CTRL
    case .getControl: CV4L2Shims_VIDIOC_G_CTRL
    case .setControl: CV4L2Shims_VIDIOC_S_CTRL
    case .getDVTimings: CV4L2Shims_VIDIOC_G_DV_TIMINGS
    }
  }

  /// The kernel header's name, e.g. `VIDIOC_DQBUF`.
  public var description: String { rawValue }
}
