import CaptureKit
import CV4L2Shims
import PhaseTrace
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

extension V4L2Camera {
  /// Negotiates `format` at `frameRate` frames per second: the pixel format (the requested one
  /// when it carries luma, else the best luma-bearing one, else one libv4l2 converts to), the
  /// offered size nearest the request, and the slowest offered rate that meets `frameRate`.
  /// The corresponding ioctls are `VIDIOC_ENUM_FRAMESIZES`, `VIDIOC_ENUM_FRAMEINTERVALS`,
  /// `VIDIOC_S_FMT` and `VIDIOC_G_PARM`/`VIDIOC_S_PARM`. Emits `device.format`.
  /// - Throws: `format_unsupported` (listing the device's formats) when nothing fits;
  ///   `invalid_state` while streaming.
  public func setActiveFormat(_ format: CaptureFormat, frameRate: Double) throws(V4L2Error) {
    try state.withLock { (s) throws(V4L2Error) in
      guard s.stream == nil else {
        throw .invalidState(path, "cannot change the format while streaming; call stopStream() first")
      }
      let handle = try requireHandle(s)
      signposter.begin(.deviceFormat, fields: ["device": .string(path)])
      defer { signposter.end(.deviceFormat, fields: ["device": .string(path)]) }
      let hadPool = s.pool != nil
      if let pool = s.pool {
        pool.release(on: handle)
        s.pool = nil
      }
      s.active = try negotiate(&s, handle: handle, format, frameRate: frameRate)
      s.requestedRate = frameRate
      if !s.movieRing.isEmpty { s.movieRing = Self.makeRing(for: s.active!) }
      if hadPool { try allocatePool(&s, handle: handle) }
    }
  }

  /// The streaming formats for `formats` (lists them once, opening the device briefly if needed).
  func captureFormats(_ s: inout State) throws(V4L2Error) -> [CaptureFormat] {
    if let cached = s.captureFormats { return cached }
    let handle: V4L2Handle
    var temporary = false
    if let open = s.handle {
      handle = open
    } else {
      handle = try V4L2Handle.open(path, kernel: kernel)
      temporary = true
    }
    defer { if temporary { handle.close() } }
    if s.pixelFormats.isEmpty { s.pixelFormats = handle.enumeratePixelFormats() }
    guard let luma = try lumaFormat(&s, handle: handle, preferring: nil) else { return [] }
    let formats = FormatNegotiator.captureFormats(of: luma)
    s.captureFormats = formats
    return formats
  }

  /// The pixel format to stream, with its sizes enumerated (cached in `s.pixelFormats`).
  func lumaFormat(_ s: inout State, handle: V4L2Handle, preferring fourCC: String?) throws(V4L2Error)
    -> V4L2PixelFormat?
  {
    let candidates = s.pixelFormats.map(\.format)
    var chosen: V4L2PixelFormat?
    if let fourCC, LumaLayout(fourCC: fourCC) != nil {
      chosen =
        candidates.first { $0.fourCC == fourCC && !$0.isEmulated } ?? candidates.first { $0.fourCC == fourCC }
    }
    guard let pick = chosen ?? FormatNegotiator.lumaFormat(from: candidates) else { return nil }
    guard let index = s.pixelFormats.firstIndex(where: { $0.format == pick }) else { return pick }
    if s.pixelFormats[index].format.sizes.isEmpty {
      s.pixelFormats[index].format.sizes = handle.enumerateSizes(pixelFormat: s.pixelFormats[index].code)
    }
    return s.pixelFormats[index].format
  }

  /// Chooses and applies a format; returns what the driver confirmed.
  func negotiate(_ s: inout State, handle: V4L2Handle, _ request: CaptureFormat, frameRate: Double)
    throws(V4L2Error)
    -> ActiveFormat
  {
    let offered = s.pixelFormats.map(\.format)
    let available = offered.map { $0.fourCC + ($0.isEmulated ? " (converted)" : "") }
    let requestOffered = offered.contains { $0.fourCC == request.fourCC }
    if !requestOffered && LumaLayout(fourCC: request.fourCC) == nil {
      throw .formatUnsupported(path, wanted: request.description, available: available)
    }
    guard let luma = try lumaFormat(&s, handle: handle, preferring: request.fourCC) else {
      throw .formatUnsupported(
        path, wanted: request.description + " (as luma: GREY, YUYV or YUV 4:2:0)",
        available: available)
    }
    let size = FormatNegotiator.closestSize(to: request.width, request.height, in: luma.sizes)
    var format = v4l2_format()
    format.type = V4L2Handle.captureType
    format.fmt.pix.width = UInt32(size?.width ?? request.width)
    format.fmt.pix.height = UInt32(size?.height ?? request.height)
    format.fmt.pix.pixelformat = FourCC.code(luma.fourCC)
    format.fmt.pix.field = UInt32(V4L2_FIELD_ANY.rawValue)
    do {
      try handle.ioctl(.setFormat, &format)
    } catch  where error.errno == Errno(rawValue: EINVAL) {
      throw .formatUnsupported(
        path, wanted: request.description, available: available, errno: Errno(rawValue: EINVAL),
        operation: V4L2Request.setFormat.rawValue)
    }
    let pix = format.fmt.pix
    let gotFourCC = FourCC.text(pix.pixelformat)
    guard let layout = LumaLayout(fourCC: gotFourCC), pix.width > 0, pix.height > 0 else {
      throw .formatUnsupported(
        path, wanted: "\(request.description) (the driver chose \(gotFourCC))",
        available: available, operation: V4L2Request.setFormat.rawValue)
    }
    guard pix.width <= Self.maxDimension, pix.height <= Self.maxDimension else {
      throw .formatUnsupported(
        path,
        wanted:
          "\(request.description) (the driver confirmed \(pix.width)x\(pix.height), beyond \(Self.maxDimension) pixels a side)",
        available: available, operation: V4L2Request.setFormat.rawValue)
    }
    let width = Int(pix.width)
    let height = Int(pix.height)
    let minimumLine = layout == .plane ? width : width * 2
    let bytesPerLine = max(Int(pix.bytesperline), minimumLine)
    var active = ActiveFormat(
      pixelFormat: pix.pixelformat, fourCC: gotFourCC, width: width, height: height,
      bytesPerLine: bytesPerLine,
      sizeImage: max(Int(pix.sizeimage), bytesPerLine * height), frameRate: nil, layout: layout)
    let confirmedSize = size.flatMap { $0.width == width && $0.height == height ? $0 : nil }
    let intervals =
      confirmedSize?.intervals
      ?? handle.enumerateIntervals(pixelFormat: pix.pixelformat, width: width, height: height)
    active.frameRate = try applyRate(handle: handle, frameRate, intervals: intervals)
    return active
  }

  /// Sets the frame interval when the driver allows it (`V4L2_CAP_TIMEPERFRAME`); returns the
  /// rate the driver confirmed, frames per second.
  func applyRate(handle: V4L2Handle, _ frameRate: Double, intervals: [V4L2FrameInterval]) throws(V4L2Error)
    -> Double?
  {
    var parm = v4l2_streamparm()
    parm.type = V4L2Handle.captureType
    guard handle.ioctlStatus(.getParameters, &parm) == 0 else { return nil }
    let canSet = parm.parm.capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0
    if canSet, frameRate > 0 {
      let chosen =
        FormatNegotiator.interval(for: frameRate, in: intervals)
        ?? V4L2FrameInterval(numerator: 1000, denominator: UInt32(max(1, (frameRate * 1000).rounded())))
      parm.parm.capture.timeperframe.numerator = chosen.numerator
      parm.parm.capture.timeperframe.denominator = chosen.denominator
      try handle.ioctl(.setParameters, &parm)
    }
    let t = parm.parm.capture.timeperframe
    return t.numerator > 0 && t.denominator > 0 ? Double(t.denominator) / Double(t.numerator) : nil
  }

  /// Negotiates a default format when none was set: the size nearest 640×480 at 30 fps.
  func ensureActiveFormat(_ s: inout State, handle: V4L2Handle) throws(V4L2Error) -> ActiveFormat {
    if let active = s.active { return active }
    let active = try negotiate(
      &s, handle: handle, CaptureFormat(width: 640, height: 480, maxFrameRate: 30),
      frameRate: 30)
    s.active = active
    s.requestedRate = 30
    return active
  }
}
