import CV4L2Shims
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

// The fake camera's answers about the device and its formats: `VIDIOC_QUERYCAP`, the format,
// frame-size and frame-interval enumerations, `VIDIOC_S_FMT`/`G_FMT` and `VIDIOC_S_PARM`/`G_PARM`.
extension FakeV4L2Kernel {
  /// `VIDIOC_QUERYCAP`: the fake driver's names and `config.capabilities`.
  func answerCapability(_ argument: UnsafeMutableRawPointer, _ s: State) -> Int32 {
    let cap = argument.assumingMemoryBound(to: v4l2_capability.self)
    write("fake", into: &cap.pointee.driver)
    write("Fake Camera", into: &cap.pointee.card)
    write("fake:0", into: &cap.pointee.bus_info)
    cap.pointee.capabilities = s.config.capabilities | UInt32(V4L2_CAP_DEVICE_CAPS)
    cap.pointee.device_caps = s.config.capabilities
    return 0
  }

  /// `VIDIOC_ENUM_FMT`: the format at the asked index, `EINVAL` past the last.
  func answerFormatDescription(_ argument: UnsafeMutableRawPointer, _ formats: [Format]) -> Int32 {
    let d = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
    let i = Int(d.pointee.index)
    guard i < formats.count else { return -EINVAL }
    d.pointee.pixelformat = FourCC.code(formats[i].fourCC)
    d.pointee.flags = formats[i].emulated ? UInt32(V4L2_FMT_FLAG_EMULATED) : 0
    write(formats[i].fourCC + " (fake)", into: &d.pointee.description)
    return 0
  }

  /// `VIDIOC_ENUM_FRAMESIZES`: a format's range (one stepwise answer) or its sizes (discrete).
  func answerFrameSizes(_ argument: UnsafeMutableRawPointer, _ formats: [Format]) -> Int32 {
    let f = argument.assumingMemoryBound(to: v4l2_frmsizeenum.self)
    if let format = formats.first(where: { FourCC.code($0.fourCC) == f.pointee.pixel_format }),
      let range = format.range
    {
      guard f.pointee.index == 0 else { return -EINVAL }
      f.pointee.type = V4L2_FRMSIZE_TYPE_STEPWISE.rawValue
      f.pointee.stepwise = v4l2_frmsize_stepwise(
        min_width: UInt32(range.minWidth), max_width: UInt32(range.maxWidth), step_width: 2,
        min_height: UInt32(range.minHeight), max_height: UInt32(range.maxHeight), step_height: 2)
      return 0
    }
    guard let format = formats.first(where: { FourCC.code($0.fourCC) == f.pointee.pixel_format }),
      Int(f.pointee.index) < format.sizes.count
    else { return -EINVAL }
    let size = format.sizes[Int(f.pointee.index)]
    f.pointee.type = V4L2_FRMSIZE_TYPE_DISCRETE.rawValue
    f.pointee.discrete.width = UInt32(size.width)
    f.pointee.discrete.height = UInt32(size.height)
    return 0
  }

  /// `VIDIOC_ENUM_FRAMEINTERVALS`: a range's one rate for any size in it, or a size's rates.
  func answerFrameIntervals(_ argument: UnsafeMutableRawPointer, _ formats: [Format]) -> Int32 {
    let f = argument.assumingMemoryBound(to: v4l2_frmivalenum.self)
    if let format = formats.first(where: { FourCC.code($0.fourCC) == f.pointee.pixel_format }),
      let range = format.range
    {
      let (w, h) = (Int(f.pointee.width), Int(f.pointee.height))
      guard f.pointee.index == 0, w >= range.minWidth, w <= range.maxWidth, h >= range.minHeight,
        h <= range.maxHeight
      else { return -EINVAL }
      f.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
      f.pointee.discrete.numerator = 1
      f.pointee.discrete.denominator = range.rate
      return 0
    }
    guard let format = formats.first(where: { FourCC.code($0.fourCC) == f.pointee.pixel_format }),
      let size = format.sizes.first(where: { $0.width == f.pointee.width && $0.height == f.pointee.height }),
      Int(f.pointee.index) < size.rates.count
    else { return -EINVAL }
    f.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
    f.pointee.discrete.numerator = 1
    f.pointee.discrete.denominator = size.rates[Int(f.pointee.index)]
    return 0
  }

  /// `VIDIOC_S_FMT` (`EBUSY` while streaming or with buffers) and `VIDIOC_G_FMT`: the current
  /// format, after `S_FMT` chose the nearest one the camera offers.
  func answerFormat(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32 {
    let f = argument.assumingMemoryBound(to: v4l2_format.self)
    if request == .setFormat {
      guard !s.streaming, s.buffers.isEmpty else { return -EBUSY }
      setFormat(f.pointee.fmt.pix, &s)
    }
    f.pointee.fmt.pix.pixelformat = FourCC.code(s.fourCC)
    f.pointee.fmt.pix.width = UInt32(s.width)
    f.pointee.fmt.pix.height = UInt32(s.height)
    f.pointee.fmt.pix.bytesperline = UInt32(s.bytesPerLine)
    f.pointee.fmt.pix.sizeimage = UInt32(s.sizeImage)
    return 0
  }

  /// Makes `asked` the current format: its pixel format if offered (else the first native one),
  /// its size if offered (clamped to a range, even; else the format's first size).
  private func setFormat(_ asked: v4l2_pix_format, _ s: inout State) {
    let formats = s.config.formats
    let native = formats.filter { !$0.emulated }
    let format =
      formats.first { FourCC.code($0.fourCC) == asked.pixelformat } ?? native.first
      ?? formats[0]
    let askedSize = (width: Int(asked.width), height: Int(asked.height))
    let size: (width: Int, height: Int) =
      if let range = format.range {
        (
          min(max(askedSize.width, range.minWidth), range.maxWidth) & ~1,
          min(max(askedSize.height, range.minHeight), range.maxHeight) & ~1
        )
      } else {
        format.sizes.first { $0.width == askedSize.width && $0.height == askedSize.height }.map {
          ($0.width, $0.height)
        }
          ?? (format.sizes[0].width, format.sizes[0].height)
      }
    s.fourCC = format.fourCC
    s.width = size.width
    s.height = size.height
    s.bytesPerLine =
      format.fourCC.hasPrefix("YUY") || format.fourCC == "UYVY" ? size.width * 2 : size.width
    s.sizeImage =
      format.fourCC == "YU12" ? size.width * size.height * 3 / 2 : s.bytesPerLine * size.height
  }

  /// `VIDIOC_S_PARM` (takes the frame interval as asked) and `VIDIOC_G_PARM`.
  func answerParameters(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: inout State)
    -> Int32
  {
    let p = argument.assumingMemoryBound(to: v4l2_streamparm.self)
    if request == .setParameters {
      let t = p.pointee.parm.capture.timeperframe
      s.interval = (t.numerator, t.denominator)
    }
    p.pointee.parm.capture.capability = UInt32(V4L2_CAP_TIMEPERFRAME)
    p.pointee.parm.capture.timeperframe.numerator = s.interval.numerator
    p.pointee.parm.capture.timeperframe.denominator = s.interval.denominator
    return 0
  }
}
