import CV4L2Shims
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// What `VIDIOC_QUERYCAP` says about a device.
struct V4L2Capability: Sendable, Hashable {
  var driver: String
  var card: String
  var bus: String
  /// The node's capabilities (`device_caps` when present, else `capabilities`).
  var deviceCapabilities: UInt32

  var canCapture: Bool { deviceCapabilities & UInt32(V4L2_CAP_VIDEO_CAPTURE) != 0 }
  var canStream: Bool { deviceCapabilities & UInt32(V4L2_CAP_STREAMING) != 0 }
}

extension V4L2Handle {
  /// The buffer type of a single-planar capture queue.
  static let captureType = UInt32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)

  /// `VIDIOC_QUERYCAP`.
  func queryCapability() throws(V4L2Error) -> V4L2Capability {
    var cap = v4l2_capability()
    try ioctl(.queryCapability, &cap)
    let caps =
      cap.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0 ? cap.device_caps : cap.capabilities
    return V4L2Capability(
      driver: cString(of: cap.driver), card: cString(of: cap.card), bus: cString(of: cap.bus_info),
      deviceCapabilities: caps)
  }

  /// `VIDIOC_QUERYCAP`, then checks that the node captures video and streams.
  /// A node that does not answer `VIDIOC_QUERYCAP` (`ENOTTY`: `/dev/null`, a tty) is no V4L2
  /// device at all.
  func requireCaptureDevice() throws(V4L2Error) -> V4L2Capability {
    let cap: V4L2Capability
    do {
      cap = try queryCapability()
    } catch {
      guard error.errno == Errno(rawValue: ENOTTY) else { throw error }
      throw .notACaptureDevice(path, why: "it does not answer VIDIOC_QUERYCAP")
    }
    if !cap.canCapture { throw .notACaptureDevice(path, why: "no video capture capability") }
    if !cap.canStream { throw .notACaptureDevice(path, why: "no streaming I/O") }
    return cap
  }

  /// `VIDIOC_ENUM_FMT` until `EINVAL`: the pixel formats, without sizes.
  func enumeratePixelFormats() -> [(code: UInt32, format: V4L2PixelFormat)] {
    var formats: [(UInt32, V4L2PixelFormat)] = []
    for index in UInt32(0)..<256 {
      var desc = v4l2_fmtdesc()
      desc.index = index
      desc.type = Self.captureType
      guard ioctlStatus(.enumerateFormat, &desc) == 0 else { break }
      let emulated = desc.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0
      formats.append(
        (
          desc.pixelformat,
          V4L2PixelFormat(
            fourCC: FourCC.text(desc.pixelformat), name: cString(of: desc.description), isEmulated: emulated)
        ))
    }
    return formats
  }

  /// `VIDIOC_ENUM_FRAMESIZES` (and `VIDIOC_ENUM_FRAMEINTERVALS` per size) for `pixelFormat`.
  /// A stepwise or continuous range (a scaler) becomes its common sizes within the range plus its
  /// maximum; when the input has a native size (its DV timings: an HDMI input, vivid's too), only
  /// the common sizes up to it, plus it: upscaling adds pixels, not detail, and a driver that
  /// reports one frame rate for every size in the range would otherwise make the largest the
  /// default.
  func enumerateSizes(pixelFormat: UInt32) -> [V4L2FrameSize] {
    var sizes: [(Int, Int)] = []
    for index in UInt32(0)..<128 {
      var size = v4l2_frmsizeenum()
      size.index = index
      size.pixel_format = pixelFormat
      guard ioctlStatus(.enumerateFrameSizes, &size) == 0 else { break }
      if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
        sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
      } else {
        let s = size.stepwise
        var (maxWidth, maxHeight) = (s.max_width, s.max_height)
        if let native = nativeSize(), native.width >= s.min_width, native.width <= s.max_width,
          native.height >= s.min_height, native.height <= s.max_height
        {
          (maxWidth, maxHeight) = (native.width, native.height)
        }
        let common: [(UInt32, UInt32)] = [(320, 240), (640, 480), (1280, 720), (1920, 1080), (3840, 2160)]
        for (w, h) in common
        where w >= s.min_width && w <= maxWidth && h >= s.min_height && h <= maxHeight {
          sizes.append((Int(w), Int(h)))
        }
        sizes.append((Int(maxWidth), Int(maxHeight)))
        break
      }
    }
    var seen = Set<[Int]>()
    let believable = 1...V4L2Camera.maxDimension
    return sizes.filter {
      believable.contains($0.0) && believable.contains($0.1) && seen.insert([$0.0, $0.1]).inserted
    }
    .map { w, h in
      V4L2FrameSize(
        width: w, height: h, intervals: enumerateIntervals(pixelFormat: pixelFormat, width: w, height: h))
    }
  }

  /// The input's native size from `VIDIOC_G_DV_TIMINGS` (an HDMI-style input), or nil when it has
  /// none (a webcam, a tuner) or the driver does not say.
  func nativeSize() -> (width: UInt32, height: UInt32)? {
    var timings = v4l2_dv_timings()
    guard ioctlStatus(.getDVTimings, &timings) == 0, timings.type == UInt32(V4L2_DV_BT_656_1120) else {
      return nil
    }
    let (width, height) = (timings.bt.width, timings.bt.height)
    return width > 0 && height > 0 ? (width, height) : nil
  }

  /// `VIDIOC_ENUM_FRAMEINTERVALS`: fastest first; a stepwise range gives its two ends.
  func enumerateIntervals(pixelFormat: UInt32, width: Int, height: Int) -> [V4L2FrameInterval] {
    var intervals: [V4L2FrameInterval] = []
    for index in UInt32(0)..<128 {
      var ival = v4l2_frmivalenum()
      ival.index = index
      ival.pixel_format = pixelFormat
      ival.width = UInt32(width)
      ival.height = UInt32(height)
      guard ioctlStatus(.enumerateFrameIntervals, &ival) == 0 else { break }
      if ival.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
        intervals.append(
          V4L2FrameInterval(numerator: ival.discrete.numerator, denominator: ival.discrete.denominator))
      } else {
        let s = ival.stepwise
        intervals.append(V4L2FrameInterval(numerator: s.min.numerator, denominator: s.min.denominator))
        intervals.append(V4L2FrameInterval(numerator: s.max.numerator, denominator: s.max.denominator))
        break
      }
    }
    return intervals.filter { $0.numerator > 0 && $0.denominator > 0 }
      .sorted { $0.framesPerSecond > $1.framesPerSecond }
  }

  /// Every pixel format with its sizes and rates.
  func describeFormats() -> [V4L2PixelFormat] {
    enumeratePixelFormats().map { code, format in
      var f = format
      f.sizes = enumerateSizes(pixelFormat: code)
      return f
    }
  }
}

/// A fixed-size C `char`/`__u8` array as a string (up to the first NUL).
func cString<T>(of tuple: T) -> String {
  withUnsafeBytes(of: tuple) { raw in
    let bytes = raw.prefix { $0 != 0 }
    return String(decoding: bytes, as: UTF8.self)
  }
}
