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
package final class FakeV4L2Kernel: Sendable {
  /// A pixel format the fake camera offers.
  package struct Format: Sendable {
    /// The format's four-character code, e.g. `YUYV`.
    package var fourCC: String
    /// Whether libv4l2 would list it as converted (`V4L2_FMT_FLAG_EMULATED`).
    package var emulated = false
    /// Its sizes in pixels, each with its frame rates (frames per second).
    package var sizes: [(width: Int, height: Int, rates: [UInt32])]
    /// A scaler's size range instead (`V4L2_FRMSIZE_TYPE_STEPWISE`, step 2), every size in it at
    /// `rate` (as vivid's HDMI input reports its one rate for any size); `sizes` is then unused.
    package var range: (minWidth: Int, minHeight: Int, maxWidth: Int, maxHeight: Int, rate: UInt32)?

    /// Creates a format.
    package init(fourCC: String, emulated: Bool = false, sizes: [(width: Int, height: Int, rates: [UInt32])])
    {
      self.fourCC = fourCC
      self.emulated = emulated
      self.sizes = sizes
    }
  }

  /// A control the fake camera offers (`VIDIOC_QUERY_EXT_CTRL`).
  package struct Control: Sendable {
    /// The control id, e.g. `V4L2_CID_BRIGHTNESS`.
    package var id: UInt32
    /// Its name.
    package var name: String
    /// `v4l2_ctrl_type`.
    package var type: UInt32
    /// The smallest value.
    package var minimum: Int64
    /// The largest value.
    package var maximum: Int64
    /// The value before any `VIDIOC_S_CTRL`.
    package var defaultValue: Int64

    /// Creates a control.
    package init(id: UInt32, name: String, type: UInt32, minimum: Int64, maximum: Int64, defaultValue: Int64)
    {
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
  package typealias Tamper = @Sendable (V4L2Request, UnsafeMutableRawBufferPointer, Int32) -> Int32

  /// What the fake camera offers and which failures it injects.
  package struct Config: Sendable {
    /// The pixel formats.
    package var formats: [Format] = [
      Format(fourCC: "YUYV", sizes: [(320, 240, [60, 30]), (640, 480, [30, 15]), (1280, 720, [10, 5])])
    ]
    /// What `stat` says about the node, or nil when it does not exist.
    package var node: V4L2NodeInfo? = V4L2NodeInfo(isCharacterDevice: true, groupID: 44, permissions: 0o660)
    /// `open` fails with this errno.
    package var openErrno: Int32?
    /// The input's DV timings' active size (`VIDIOC_G_DV_TIMINGS`), or nil: `-ENODATA`, as for
    /// an input without timings.
    package var dvTimings: (width: Int, height: Int)?
    /// `device_caps`.
    package var capabilities = UInt32(V4L2_CAP_VIDEO_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
    /// errno values returned by the next calls of a request, in order.
    package var failures: [V4L2Request: [Int32]] = [:]
    /// DQBUF fails with this errno once this many frames were dequeued.
    package var dequeueFailure: (afterFrames: Int, errno: Int32)?
    /// The controls.
    package var controls: [Control] = [
      Control(id: 0x0098_0900, name: "Brightness", type: 1, minimum: 0, maximum: 255, defaultValue: 128),
      Control(id: 0x00f0_f002, name: "Horizontal Movement", type: 3, minimum: 0, maximum: 6, defaultValue: 3),
    ]
    /// How long `poll` takes when a buffer is ready, in nanoseconds (the frame pacing; 1 ms).
    package var readyPollNanoseconds: UInt64 = 1_000_000
    /// The longest `poll` wait when no buffer is ready, in milliseconds (5).
    package var idlePollMilliseconds: Int32 = 5
    /// Rewrites every answer (for the fuzzer), or nil.
    package var tamper: Tamper?

    /// The default camera: YUYV at 320×240, 640×480 and 1280×720, streaming, no failures.
    package init() {}
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
  package static let group = "video"
  /// The fake node.
  package static let path = "/dev/video0"
  /// `V4L2_BUF_TYPE_VIDEO_OUTPUT`.
  static let outputType = UInt32(V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
  /// The largest buffer the fake allocates, in bytes: a bigger `sizeimage` fails `VIDIOC_REQBUFS`
  /// with `ENOMEM`, as a kernel out of memory would.
  package static let maxBufferBytes = 64 << 20

  /// Creates a fake kernel serving one camera at ``path``.
  package init(_ config: Config = Config()) {
    state = PThreadMutex(State(config: config))
  }

  deinit {
    state.withLock { s in
      for b in s.buffers { UnsafeMutableRawPointer(bitPattern: b.address)?.deallocate() }
    }
  }

  /// The luma value the fake writes into frame `n` (from 0).
  package static func luma(ofFrame n: Int) -> UInt8 { UInt8(truncatingIfNeeded: 16 + n * 7) }

  /// The most output frames kept by ``outputFrames``.
  package static let maxOutputFrames = 256

  /// What a writer queued on the output queue (`VIDIOC_QBUF` with `V4L2_BUF_TYPE_VIDEO_OUTPUT`),
  /// in order: the buffer index and a copy of its `bytesused` bytes (the first
  /// ``maxOutputFrames`` frames). The fake shows them at once: `VIDIOC_DQBUF` of the output
  /// queue hands the oldest back, unchanged.
  package var outputFrames: [(index: Int, bytes: [UInt8])] { state.withLock { $0.outputFrames } }

  /// How often `request` was issued.
  package func count(_ request: V4L2Request) -> Int {
    state.withLock { $0.calls.filter { $0 == request }.count }
  }
  /// The current interval set by S_PARM, frames per second.
  package var framesPerSecond: Double {
    state.withLock { Double($0.interval.denominator) / Double($0.interval.numerator) }
  }

  /// The size of `request`'s argument (its C struct), in bytes.
  package static func argumentBytes(of request: V4L2Request) -> Int {
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
  package var kernel: V4L2Kernel {
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
  package func ioctl(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer) -> Int32 {
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

  /// Answers `request` on `argument` (the request's C struct) from the camera's state `s`:
  /// ≥ 0 or `-errno`. Each family of requests has its own answer: the device and its formats
  /// (`FakeV4L2Kernel+Formats.swift`), buffers and streaming (`+Buffers`), controls and DV
  /// timings (`+Controls`).
  private func answer(_ request: V4L2Request, _ argument: UnsafeMutableRawPointer, _ s: inout State) -> Int32
  {
    switch request {
    case .queryCapability: answerCapability(argument, s)
    case .enumerateFormat: answerFormatDescription(argument, s.config.formats)
    case .enumerateFrameSizes: answerFrameSizes(argument, s.config.formats)
    case .enumerateFrameIntervals: answerFrameIntervals(argument, s.config.formats)
    case .setFormat, .getFormat: answerFormat(request, argument, &s)
    case .getParameters, .setParameters: answerParameters(request, argument, &s)
    case .requestBuffers: answerRequestBuffers(argument, &s)
    case .queryBuffer: answerQueryBuffer(argument, s)
    case .queueBuffer: answerQueueBuffer(argument, &s)
    case .dequeueBuffer: answerDequeueBuffer(argument, &s)
    case .streamOn, .streamOff: answerStreaming(request, &s)
    case .queryExtendedControl, .queryControl: answerControlQuery(request, argument, s)
    case .getControl, .setControl: answerControl(request, argument, &s)
    case .getDVTimings: answerDVTimings(argument, s)
    }
  }

  /// Writes `text` into a fixed-size C character array, NUL-padded (and cut to leave one NUL).
  func write<T>(_ text: String, into field: inout T) {
    withUnsafeMutableBytes(of: &field) { raw in
      raw.initializeMemory(as: UInt8.self, repeating: 0)
      for (i, byte) in text.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
    }
  }
}
