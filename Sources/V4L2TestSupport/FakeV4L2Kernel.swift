import CV4L2Shims
import Synchronization
import SystemCalls
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

/// A fake kernel with one fake camera per node: answers the V4L2 ioctls from a table, backs
/// "mmap'd" buffers with heap memory, fills dequeued buffers with a known luma value per frame
/// (`FakeV4L2Kernel.luma(ofFrame:)`), and injects errno values on request.
///
/// A real target (STYLE.md rule 7) so that the V4L2 tests and the V4L2 fuzzer share it: the
/// fuzzer's ``Config/tamper`` hook rewrites the fake's answers with hostile values. Like the
/// kernel, `mmap` refuses (`EINVAL`) a length beyond the buffer it maps, so whatever the answers
/// say, the camera can only be handed memory that exists.
public final class FakeV4L2Kernel: Sendable {
  /// A pixel format the fake camera offers.
  public struct Format: Sendable {
    /// The format's four-character code, e.g. `YUYV`.
    public var fourCC: String
    /// Whether libv4l2 would list it as converted (`V4L2_FMT_FLAG_EMULATED`).
    public var emulated = false
    /// Its sizes in pixels, each with its frame rates (frames per second).
    public var sizes: [(width: Int, height: Int, rates: [UInt32])]
    /// A scaler's size range instead (`V4L2_FRMSIZE_TYPE_STEPWISE`, step 2), every size in it at
    /// `rate` (as vivid's HDMI input reports its one rate for any size); `sizes` is then unused.
    public var range: (minWidth: Int, minHeight: Int, maxWidth: Int, maxHeight: Int, rate: UInt32)?

    /// Creates a format.
    public init(fourCC: String, emulated: Bool = false, sizes: [(width: Int, height: Int, rates: [UInt32])]) {
      self.fourCC = fourCC
      self.emulated = emulated
      self.sizes = sizes
    }
  }

  /// A control the fake camera offers (`VIDIOC_QUERY_EXT_CTRL`).
  public struct Control: Sendable {
    /// The control id, e.g. `V4L2_CID_BRIGHTNESS`.
    public var id: UInt32
    /// Its name.
    public var name: String
    /// `v4l2_ctrl_type`.
    public var type: UInt32
    /// The smallest value.
    public var minimum: Int64
    /// The largest value.
    public var maximum: Int64
    /// The value before any `VIDIOC_S_CTRL`.
    public var defaultValue: Int64

    /// Creates a control.
    public init(id: UInt32, name: String, type: UInt32, minimum: Int64, maximum: Int64, defaultValue: Int64) {
      self.id = id
      self.name = name
      self.type = type
      self.minimum = minimum
      self.maximum = maximum
      self.defaultValue = defaultValue
    }
  }

  /// Rewrites an answer after the fake computed it: gets the request, its argument (the
  /// request's C struct, `argumentBytes(of:)` bytes) and the fake's result (≥ 0 or `-errno`),
  /// and returns the result to give the caller.
  public typealias Tamper = @Sendable (V4L2Request, UnsafeMutableRawBufferPointer, Int32) -> Int32

  /// What the fake camera offers and which failures it injects.
  public struct Config: Sendable {
    /// The pixel formats.
    public var formats: [Format] = [
      Format(fourCC: "YUYV", sizes: [(320, 240, [60, 30]), (640, 480, [30, 15]), (1280, 720, [10, 5])])
    ]
    /// What `stat` says about the node, or nil when it does not exist.
    public var node: V4L2NodeInfo? = V4L2NodeInfo(isCharacterDevice: true, groupID: 44, permissions: 0o660)
    /// `open` fails with this errno.
    public var openErrno: Int32?
    /// The input's DV timings' active size (`VIDIOC_G_DV_TIMINGS`), or nil: `-ENODATA`, as for
    /// an input without timings.
    public var dvTimings: (width: Int, height: Int)?
    /// `device_caps`.
    public var capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
    /// errno values returned by the next calls of a request, in order.
    public var failures: [V4L2Request: [Int32]] = [:]
    /// DQBUF fails with this errno once this many frames were dequeued.
    public var dequeueFailure: (afterFrames: Int, errno: Int32)?
    /// The controls.
    public var controls: [Control] = [
      Control(id: 0x0098_0900, name: "Brightness", type: 1, minimum: 0, maximum: 255, defaultValue: 128),
      Control(id: 0x00f0_f002, name: "Horizontal Movement", type: 3, minimum: 0, maximum: 6, defaultValue: 3),
    ]
    /// How long `poll` takes when a buffer is ready, in nanoseconds (the frame pacing; 1 ms).
    public var readyPollNanoseconds: UInt64 = 1_000_000
    /// The longest `poll` wait when no buffer is ready, in milliseconds (5).
    public var idlePollMilliseconds: Int32 = 5
    /// Rewrites every answer (for the fuzzer), or nil.
    public var tamper: Tamper?

    /// The default camera: YUYV at 320×240, 640×480 and 1280×720, streaming, no failures.
    public init() {}
  }

  struct State: Sendable {
    var config: Config
    var calls: [V4L2Request] = []
    var openCount = 0
    var fourCC = ""
    var width = 0
    var height = 0
    var bytesPerLine = 0
    var sizeImage = 0
    var interval = (numerator: UInt32(1), denominator: UInt32(30))
    /// Heap buffers backing the "mmap'd" memory: address and length in bytes.
    var buffers: [(address: UInt, length: Int)] = []
    var queued: [Int] = []
    var streaming = false
    var frames = 0
    var controlValues: [UInt32: Int32] = [:]
    /// Output buffers as queued (`VIDIOC_QBUF` of `V4L2_BUF_TYPE_VIDEO_OUTPUT`): index and bytes.
    var outputFrames: [(index: Int, bytes: [UInt8])] = []
  }

  let state: PThreadMutex<State>
  /// The group that owns the fake node (gid 44).
  public static let group = "video"
  /// The fake node.
  public static let path = "/dev/video0"
  /// `V4L2_BUF_TYPE_VIDEO_OUTPUT`.
  static let outputType = UInt32(V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
  /// The largest buffer the fake allocates, in bytes: a bigger `sizeimage` fails `VIDIOC_REQBUFS`
  /// with `ENOMEM`, as a kernel out of memory would.
  public static let maxBufferBytes = 64 << 20

  /// Creates a fake kernel serving one camera at ``path``.
  public init(_ config: Config = Config()) {
    state = PThreadMutex(State(config: config))
  }

  deinit {
    state.withLock { s in
      for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b.address)?.deallocate() }
    }
  }

  /// The luma value the fake writes into frame `n` (from 0).
  public static func luma(ofFrame n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 16 + n * 7) }

  /// The most output frames kept by ``outputFrames``.
  public static let maxOutputFrames = 256

  /// What a writer queued on the output queue (`VIDIOC_QBUF` with `V4L2_BUF_TYPE_VIDEO_OUTPUT`),
  /// in order: the buffer index and a copy of its `bytesused` bytes (the first
  /// ``maxOutputFrames`` frames). The fake shows them at once: `VIDIOC_DQBUF` of the output
  /// queue hands the oldest back, unchanged.
  public var outputFrames: [(index: Int, bytes: [UInt8])] { state.withLock { $0.outputFrames } }

  /// How often `request` was issued.
  public func count(_ request: V4L2Request) -> Int {
    state.withLock { $0.calls.filter { $0 == request }.count }
  }
  /// The current interval set by S_PARM, frames per second.
  public var framesPerSecond: Double {
    state.withLock { Double($0.interval.denominator) / Double($0.interval.numerator) }
  }

  /// The size of `request`'s argument (its C struct), in bytes.
  public static func argumentBytes(of request: V4L2Request) -> Int {
    switch request {
    case .queryCapability: MemoryLayout<v4l2_capability>.size
    case .enumerateFormat: MemoryLayout<v4l2_fmtdesc>.size
    case .getFormat, .setFormat: MemoryLayout<v4l2_format>.size
    case .enumerateFrameSizes: MemoryLayout<v4l2_frmsizeenum>.size
    case .enumerateFrameIntervals: MemoryLayout<v4l2_frmivalenum>.size
    case .getParameters, .setParameters: MemoryLayout<v4l2_streamparm>.size
    case .requestBuffers: MemoryLayout<v4l2_requestbuffers>.size
    case .queryBuffer, .queueBuffer, .dequeueBuffer: MemoryLayout<v4l2_buffer>.size
    case .streamOn, .streamOff: MemoryLayout<Int32>.size
    case .queryControl: MemoryLayout<v4l2_queryctrl>.size
    case .queryExtendedControl: MemoryLayout<v4l2_query_ext_ctrl>.size
    case .getControl, .setControl: MemoryLayout<v4l2_control>.size
    case .getDVTimings: MemoryLayout<v4l2_dv_timings>.size
    }
  }

  /// The seam to hand to `V4L2Camera(path:kernel:)`.
  public var kernel: V4L2Kernel {
    V4L2Kernel(
      open: { path, _ in
        self.state.withLock { s in
          if let e = s.config.openErrno { return -e }
          s.openCount += 1
          return 3
        }
      },
      close: { _ in 0 },
      ioctl: { _, request, argument in self.ioctl(request, argument) },
      mmap: { _, length, offset in
        self.state.withLock { s in
          // As the kernel: an offset that names no buffer, or a length beyond it, is EINVAL.
          guard offset >= 0, offset % 0x10000 == 0, s.buffers.indices.contains(Int(offset / 0x10000)) else {
            return -Int(EINVAL)
          }
          let buffer = s.buffers[Int(offset / 0x10000)]
          return length > 0 && length <= buffer.length ? Int(bitPattern: buffer.address) : -Int(EINVAL)
        }
      },
      munmap: { _, _ in 0 },
      poll: { _, timeout in
        let (ready, pace, idle) = self.state.withLock {
          ($0.streaming && !$0.queued.isEmpty, $0.config.readyPollNanoseconds, $0.config.idlePollMilliseconds)
        }
        MonotonicClock.sleep(nanoseconds: ready ? pace : UInt64(max(0, min(timeout, idle))) * 1_000_000)
        return ready ? 1 : 0
      },
      nodeInfo: { path in path == Self.path ? self.state.withLock { $0.config.node } : nil },
      groupName: { gid in gid == 44 ? Self.group : nil },
      videoNodes: { [Self.path] }
    )
  }

  /// Answers `request` on `argument` (the request's C struct): ≥ 0 or `-errno`.
  public func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Int32 {
    let (result, tamper) = state.withLock { s -> (Int32, Tamper?) in
      s.calls.append(request)
      if var queue = s.config.failures[request], !queue.isEmpty {
        let e = queue.removeFirst()
        s.config.failures[request] = queue
        return (-e, s.config.tamper)
      }
      return (answer(request, argument, &s), s.config.tamper)
    }
    guard let tamper else { return result }
    return tamper(
      request, UnsafeMutableRawBufferPointer(start: argument, count: Self.argumentBytes(of: request)), result)
  }

  private func answer(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32
  {
    let formats = s.config.formats
    switch request {
    case .queryCapability:
      let cap = argument.assumingMemoryBound(to: v4l2_capability.self)
      write("fake", into: &cap.pointee.driver)
      write("Fake Camera", into: &cap.pointee.card)
      write("fake:0", into: &cap.pointee.bus_info)
      cap.pointee.capabilities = s.config.capabilities | UInt32(V4L2_CAP_DEVICE_CAPS)
      cap.pointee.device_caps = s.config.capabilities
      return 0
    case .enumerateFormat:
      let d = argument.assumingMemoryBound(to: v4l2_fmtdesc.self)
      let i = Int(d.pointee.index)
      guard i < formats.count else { return -EINVAL }
      d.pointee.pixelformat = FourCC.code(formats[i].fourCC)
      d.pointee.flags = formats[i].emulated ? UInt32(V4L2_FMT_FLAG_EMULATED) : 0
      write(formats[i].fourCC + " (fake)", into: &d.pointee.description)
      return 0
    case .enumerateFrameSizes:
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
    case .enumerateFrameIntervals:
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
        let size = format.sizes.first(where: { $0.width == f.pointee.width && $0.height == f.pointee.height }
        ),
        Int(f.pointee.index) < size.rates.count
      else { return -EINVAL }
      f.pointee.type = V4L2_FRMIVAL_TYPE_DISCRETE.rawValue
      f.pointee.discrete.numerator = 1
      f.pointee.discrete.denominator = size.rates[Int(f.pointee.index)]
      return 0
    case .setFormat, .getFormat:
      let f = argument.assumingMemoryBound(to: v4l2_format.self)
      if request == .setFormat {
        guard !s.streaming, s.buffers.isEmpty else { return -EBUSY }
        let native = formats.filter { !$0.emulated }
        let format =
          formats.first { FourCC.code($0.fourCC) == f.pointee.fmt.pix.pixelformat } ?? native.first
          ?? formats[0]
        let asked = (width: Int(f.pointee.fmt.pix.width), height: Int(f.pointee.fmt.pix.height))
        let size: (width: Int, height: Int) =
          if let range = format.range {
            (
              min(max(asked.width, range.minWidth), range.maxWidth) & ~1,
              min(max(asked.height, range.minHeight), range.maxHeight) & ~1
            )
          } else {
            format.sizes.first { $0.width == asked.width && $0.height == asked.height }.map {
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
      f.pointee.fmt.pix.pixelformat = FourCC.code(s.fourCC)
      f.pointee.fmt.pix.width = UInt32(s.width)
      f.pointee.fmt.pix.height = UInt32(s.height)
      f.pointee.fmt.pix.bytesperline = UInt32(s.bytesPerLine)
      f.pointee.fmt.pix.sizeimage = UInt32(s.sizeImage)
      return 0
    case .getParameters, .setParameters:
      let p = argument.assumingMemoryBound(to: v4l2_streamparm.self)
      if request == .setParameters {
        let t = p.pointee.parm.capture.timeperframe
        s.interval = (t.numerator, t.denominator)
      }
      p.pointee.parm.capture.capability = UInt32(V4L2_CAP_TIMEPERFRAME)
      p.pointee.parm.capture.timeperframe.numerator = s.interval.numerator
      p.pointee.parm.capture.timeperframe.denominator = s.interval.denominator
      return 0
    case .requestBuffers:
      let r = argument.assumingMemoryBound(to: v4l2_requestbuffers.self)
      guard !s.streaming else { return -EBUSY }
      for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b.address)?.deallocate() }
      s.buffers = []
      s.queued = []
      guard s.sizeImage <= Self.maxBufferBytes else { return -ENOMEM }
      let length = max(s.sizeImage, 1)
      s.buffers = (0..<min(Int(r.pointee.count), 32)).map { _ in
        (UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)), length)
      }
      r.pointee.count = UInt32(s.buffers.count)
      return 0
    case .queryBuffer:
      let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
      guard Int(b.pointee.index) < s.buffers.count else { return -EINVAL }
      b.pointee.length = UInt32(s.buffers[Int(b.pointee.index)].length)
      b.pointee.m.offset = b.pointee.index * 0x10000
      return 0
    case .queueBuffer:
      let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
      guard Int(b.pointee.index) < s.buffers.count, !s.queued.contains(Int(b.pointee.index)) else {
        return -EINVAL
      }
      s.queued.append(Int(b.pointee.index))
      if b.pointee.type == Self.outputType, s.outputFrames.count < Self.maxOutputFrames {
        let buffer = s.buffers[Int(b.pointee.index)]
        let used = b.pointee.bytesused > 0 ? min(Int(b.pointee.bytesused), buffer.length) : buffer.length
        let bytes = UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: buffer.address), count: used)
        s.outputFrames.append((Int(b.pointee.index), Array(bytes)))
      }
      return 0
    case .dequeueBuffer:
      if let failure = s.config.dequeueFailure, s.frames >= failure.afterFrames { return -failure.errno }
      guard s.streaming, !s.queued.isEmpty else { return -EAGAIN }
      let index = s.queued.removeFirst()
      let buffer = s.buffers[index]
      if argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.type == Self.outputType {
        argument.assumingMemoryBound(to: v4l2_buffer.self).pointee.index = UInt32(index)
        return 0
      }
      fill(
        UnsafeMutableRawBufferPointer(
          start: UnsafeMutableRawPointer(bitPattern: buffer.address), count: buffer.length), s)
      let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
      b.pointee.index = UInt32(index)
      b.pointee.bytesused = UInt32(s.sizeImage)
      b.pointee.sequence = UInt32(s.frames)
      b.pointee.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
      let now = MonotonicClock.now()
      b.pointee.timestamp.tv_sec = Int(now / 1_000_000_000)
      b.pointee.timestamp.tv_usec = Int(now % 1_000_000_000 / 1000)
      s.frames += 1
      return 0
    case .streamOn:
      guard !s.buffers.isEmpty else { return -EINVAL }
      s.streaming = true
      return 0
    case .streamOff:
      s.streaming = false
      s.queued = []
      return 0
    case .queryExtendedControl, .queryControl:
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
    case .getControl, .setControl:
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
    case .getDVTimings:
      guard let size = s.config.dvTimings else { return -ENODATA }
      let t = argument.assumingMemoryBound(to: v4l2_dv_timings.self)
      t.pointee.type = UInt32(V4L2_DV_BT_656_1120)
      t.pointee.bt.width = UInt32(size.width)
      t.pointee.bt.height = UInt32(size.height)
      return 0
    }
  }

  /// Luma `luma(ofFrame:)` everywhere a Y sample sits, 128 for chroma.
  private func fill(_ bytes: UnsafeMutableRawBufferPointer, _ s: State) {
    let y = Self.luma(ofFrame: s.frames)
    switch s.fourCC {
    case "YUYV":
      for i in 0..<bytes.count { bytes[i] = i % 2 == 0 ? y : 128 }
    case "UYVY":
      for i in 0..<bytes.count { bytes[i] = i % 2 == 1 ? y : 128 }
    default:
      let plane = s.bytesPerLine * s.height
      for i in 0..<bytes.count { bytes[i] = i < plane ? y : 128 }
    }
  }

  private func write<T>(_ text: String, into field: inout T) {
    withUnsafeMutableBytes(of: &field) { raw in
      raw.initializeMemory(as: UInt8.self, repeating: 0)
      for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
  }
}
