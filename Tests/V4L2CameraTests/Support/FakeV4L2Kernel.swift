import CV4L2Shims
import Foundation
import Synchronization
import SystemCalls
import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

/// A fake kernel with one fake camera per node: answers the V4L2 ioctls from a table, backs
/// "mmap'd" buffers with heap memory, fills dequeued buffers with a known luma value per frame
/// (`FakeV4L2Kernel.luma(ofFrame:)`), and injects errno values on request.
final class FakeV4L2Kernel: Sendable {
  struct Format: Sendable {
    var fourCC: String
    var emulated = false
    var sizes: [(width: Int, height: Int, rates: [UInt32])]
  }

  struct Control: Sendable {
    var id: UInt32
    var name: String
    var type: UInt32
    var minimum: Int64
    var maximum: Int64
    var defaultValue: Int64
  }

  struct Config: Sendable {
    var formats: [Format] = [
      Format(fourCC: "YUYV", sizes: [(320, 240, [60, 30]), (640, 480, [30, 15]), (1280, 720, [10, 5])])
    ]
    var node: V4L2NodeInfo? = V4L2NodeInfo(isCharacterDevice: true, groupID: 44, permissions: 0o660)
    var openErrno: Int32?
    var capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
    /// errno values returned by the next calls of a request, in order.
    var failures: [V4L2Request: [Int32]] = [:]
    /// DQBUF fails with this errno once this many frames were dequeued.
    var dequeueFailure: (afterFrames: Int, errno: Int32)?
    var controls: [Control] = [
      Control(id: 0x0098_0900, name: "Brightness", type: 1, minimum: 0, maximum: 255, defaultValue: 128),
      Control(id: 0x00f0_f002, name: "Horizontal Movement", type: 3, minimum: 0, maximum: 6, defaultValue: 3),
    ]
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
    var buffers: [UInt] = []
    var queued: [Int] = []
    var streaming = false
    var frames = 0
    var controlValues: [UInt32: Int32] = [:]
  }

  let state: Mutex<State>
  static let group = "video"
  static let path = "/dev/video0"

  init(_ config: Config = Config()) {
    state = Mutex(State(config: config))
  }

  deinit {
    state.withLock { s in
      for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b)?.deallocate() }
    }
  }

  /// The luma value the fake writes into frame `n` (from 0).
  static func luma(ofFrame n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 16 + n * 7) }

  /// How often `request` was issued.
  func count(_ request: V4L2Request) -> Int { state.withLock { $0.calls.filter { $0 == request }.count } }
  /// The current interval set by S_PARM, frames per second.
  var framesPerSecond: Double {
    state.withLock { Double($0.interval.denominator) / Double($0.interval.numerator) }
  }

  var kernel: V4L2Kernel {
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
      mmap: { _, _, offset in
        self.state.withLock { s in
          let index = Int(offset / 0x10000)
          return s.buffers.indices.contains(index) ? Int(bitPattern: s.buffers[index]) : -Int(EINVAL)
        }
      },
      munmap: { _, _ in 0 },
      poll: { _, timeout in
        let ready = self.state.withLock { $0.streaming && !$0.queued.isEmpty }
        MonotonicClock.sleep(nanoseconds: ready ? 1_000_000 : UInt64(max(0, min(timeout, 5))) * 1_000_000)
        return ready ? 1 : 0
      },
      nodeInfo: { path in path == Self.path ? self.state.withLock { $0.config.node } : nil },
      groupName: { gid in gid == 44 ? Self.group : nil },
      videoNodes: { [Self.path] }
    )
  }

  func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Int32 {
    state.withLock { s in
      s.calls.append(request)
      if var queue = s.config.failures[request], !queue.isEmpty {
        let e = queue.removeFirst()
        s.config.failures[request] = queue
        return -e
      }
      return answer(request, argument, &s)
    }
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
        let size =
          format.sizes.first { $0.width == f.pointee.fmt.pix.width && $0.height == f.pointee.fmt.pix.height }
          ?? format.sizes[0]
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
      for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b)?.deallocate() }
      s.buffers = (0..<Int(r.pointee.count)).map { _ in
        UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: s.sizeImage, alignment: 64))
      }
      s.queued = []
      return 0
    case .queryBuffer:
      let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
      guard Int(b.pointee.index) < s.buffers.count else { return -EINVAL }
      b.pointee.length = UInt32(s.sizeImage)
      b.pointee.m.offset = b.pointee.index * 0x10000
      return 0
    case .queueBuffer:
      let b = argument.assumingMemoryBound(to: v4l2_buffer.self)
      guard Int(b.pointee.index) < s.buffers.count, !s.queued.contains(Int(b.pointee.index)) else {
        return -EINVAL
      }
      s.queued.append(Int(b.pointee.index))
      return 0
    case .dequeueBuffer:
      if let failure = s.config.dequeueFailure, s.frames >= failure.afterFrames { return -failure.errno }
      guard s.streaming, !s.queued.isEmpty else { return -EAGAIN }
      let index = s.queued.removeFirst()
      fill(UnsafeMutableRawPointer(bitPattern: s.buffers[index])!, s)
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
    }
  }

  /// Luma `luma(ofFrame:)` everywhere a Y sample sits, 128 for chroma.
  private func fill(_ memory: UnsafeMutableRawPointer, _ s: State) {
    let y = Self.luma(ofFrame: s.frames)
    let bytes = UnsafeMutableRawBufferPointer(start: memory, count: s.sizeImage)
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
