import CaptureKit
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A real camera through libv4l2: a `CaptureDevice` over a `/dev/video*` node.
///
/// - `open()` opens the node (`v4l2_open`), checks `VIDIOC_QUERYCAP` and lists the formats;
/// - `setActiveFormat` negotiates pixel format, size and rate (`VIDIOC_S_FMT`, `VIDIOC_S_PARM`),
///   asking libv4l2 for a luma-bearing format (GREY, YUYV, YUV 4:2:0 — converted in user space
///   when the device lacks it) and taking the Y plane;
/// - `initializeOutput` does each output's device-side work: preview/video-data/analysis map
///   the streaming buffer pool, photo sets up the still path (see `captureStill()`), movie
///   allocates the recording ring;
/// - `startStream` queues the buffers, `VIDIOC_STREAMON`, and runs a dedicated thread that polls
///   and dequeues.
///
/// Phase events (`EventName`): `device.open`, `device.format`, `device.buffers`,
/// `device.stream_on` (begin/end) and `device.first_buffer` (event).
///
/// All device state sits behind one `Mutex`; calls are serialised, the stream thread owns only an
/// immutable snapshot (descriptor, buffer addresses, format).
public final class V4L2Camera: CaptureDevice {
  /// The node, e.g. `/dev/video0`.
  public let path: String
  /// `v4l2:/dev/video0`.
  public let uniqueID: String
  let signposter: Signposter
  let kernel: V4L2Kernel
  let state = PThreadMutex(State())
  /// The newest streamed frame (a still at the streaming size needs no format switch).
  let latestFrame = PThreadMutex<VideoFrame?>(nil)
  /// How long a still at the streaming size waits for the next streamed frame before it fails
  /// with `timed_out`, ns: 2 s unless said (`init`'s `stillFrameTimeout`).
  let stillFrameTimeoutNanoseconds: UInt64

  /// The number of streaming buffers requested (`VIDIOC_REQBUFS`).
  public static let streamingBufferCount = 4
  /// The number of frames in the movie output's recording ring.
  public static let movieRingFrames = 8
  /// The largest frame side taken from a driver, in pixels (8K sensors are 7680 wide). A driver
  /// that lists or confirms a larger size is not believed: the size is left out, or the format
  /// refused, rather than a frame of that size allocated.
  public static let maxDimension = 8192

  /// Everything that changes, guarded by `state`.
  struct State: Sendable {
    var handle: V4L2Handle?
    var capability: V4L2Capability?
    /// The device's pixel formats (codes → formats; sizes filled in when needed).
    var pixelFormats: [(code: UInt32, format: V4L2PixelFormat)] = []
    /// The streaming formats (cached after the first listing).
    var captureFormats: [CaptureFormat]?
    var active: ActiveFormat?
    var requestedRate: Double?
    var pool: BufferPool?
    var outputs: Set<CaptureOutputKind> = []
    var stream: (control: StreamControl, deliver: @Sendable (VideoFrame) -> Void)?
    var still: StillSetup?
    var movieRing: [[UInt8]] = []
    /// How the last open powered the device up (`V4L2RuntimePower`), if the kernel said.
    var powerUp: DevicePowerUp?
    /// Whether the last stream's thread got `SCHED_FIFO`; nil before a stream started.
    var realtimePriorityGranted: Bool?
  }

  /// Creates the camera for `path` without opening it: checks only that the node exists and is
  /// a character device (one `stat`).
  /// - Parameters:
  ///   - signposter: receives the device phase events.
  ///   - kernel: the system calls; tests pass a fake kernel.
  ///   - stillFrameTimeout: how long a still at the streaming size waits for the next streamed
  ///     frame (2 s; at least 1 ms). Tests on a starved machine give the fake kernel's stream more.
  /// - Throws: `V4L2Error` `no_such_device` when the node is missing or not a device node.
  public init(
    path: String, signposter: Signposter = .disabled, kernel: V4L2Kernel = .system,
    stillFrameTimeout: Duration = .seconds(2)
  ) throws(V4L2Error) {
    guard let node = kernel.nodeInfo(path) else { throw .noSuchDevice(path, operation: "stat") }
    guard node.isCharacterDevice else { throw .notACaptureDevice(path, why: "not a character device") }
    self.path = path
    self.uniqueID = CameraSelection.v4l2(path: path).description
    self.signposter = signposter
    self.kernel = kernel
    let (seconds, attoseconds) = stillFrameTimeout.components
    let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    self.stillFrameTimeoutNanoseconds = UInt64(min(max(nanoseconds, 1e6), 3.6e12))
  }

  /// Checks cheaply that `path` is a V4L2 capture device this user may open: the node exists,
  /// is a character device, opens, and `VIDIOC_QUERYCAP` reports video capture with streaming;
  /// then that libv4l2 loads (`loadLibrary`, ``LibV4L2/load(soname:)``), which streaming needs.
  ///
  /// The device is asked with plain system calls (``V4L2Kernel/direct``), not through libv4l2:
  /// libv4l2 writes its own lines to standard error about a node that is not a capture device
  /// ("libv4l2: error getting capabilities…" for `/dev/null`), and bad input is one line of ours.
  /// - Throws: `V4L2Error` (no such device, permission denied naming the group, busy, not a
  ///   capture device, libv4l2 missing naming its package, …).
  public static func validate(
    path: String, kernel: V4L2Kernel = .direct, loadLibrary: () -> String? = { LibV4L2.load() }
  ) throws(V4L2Error) {
    let handle = try V4L2Handle.open(path, kernel: kernel)
    defer { handle.close() }
    _ = try handle.requireCaptureDevice()
    if loadLibrary() != nil { throw .libraryMissing(path, errno: Errno(rawValue: ELIBACC)) }
  }

  /// The card name (`v4l2_capability.card`), or the path before the device was opened.
  public var localizedName: String {
    state.withLock { $0.capability.map { "\($0.card) (\(path))" } } ?? path
  }

  /// The sizes of the streaming pixel format, each at its fastest rate, best first: those with a
  /// live preview rate (24 fps or more) largest first, then the slower ones largest first. `fourCC`
  /// is the format requested from libv4l2 (it may be converted from the device's own format).
  /// Before `open()`, the device is opened briefly to list them; `[]` if that fails.
  public var formats: [CaptureFormat] {
    (try? state.withLock { (s) throws(V4L2Error) -> [CaptureFormat] in try self.captureFormats(&s) }) ?? []
  }

  /// The pixel throughput the device sustains, pixels per second: the largest
  /// `width × height × maxFrameRate` among `formats` (for vivid, 3840×2160 at 2 fps ≈ 16.6 M/s).
  /// V4L2 does not report bandwidth, so the device's own best mode is the budget: a session
  /// asking for more than any listed mode gets a `hardwareCost` above 1.
  public var pixelBudget: Double {
    FormatNegotiator.pixelBudget(of: formats)
  }

  /// Why the stream stopped on its own (`device_gone` after an unplug), if it did.
  public var streamFailure: V4L2Error? {
    state.withLock { $0.stream?.control }?.failure.withLock { $0 } ?? lastFailure.withLock { $0 }
  }
  let lastFailure = PThreadMutex<V4L2Error?>(nil)
  /// Counts the frames delivered after a `stopStream()` had returned.
  let deliveries = DeliveryAfterStopCounter()

  /// The frames delivered after a `stopStream()` had returned, over every stream of this camera:
  /// 0 unless the stop failed to wait for the stream thread.
  package var framesDeliveredAfterStop: Int { deliveries.framesDeliveredAfterStop }

  /// The negotiated format: `640x480@25 YUYV` (the driver's confirmed size and rate), or `nil`.
  public var activeFormatDescription: String? {
    state.withLock { s in
      s.active.map {
        CaptureFormat(width: $0.width, height: $0.height, maxFrameRate: $0.frameRate ?? 0, fourCC: $0.fourCC)
          .description
      }
    }
  }

  /// Opens and claims the device: `v4l2_open`, `VIDIOC_QUERYCAP` (video capture + streaming),
  /// `VIDIOC_ENUM_FMT`. Emits `device.open`. Does nothing when already open.
  public func open() throws(V4L2Error) {
    try state.withLock { (s) throws(V4L2Error) in
      guard s.handle == nil else { return }
      // Before the open: the open itself resumes a suspended device.
      s.powerUp = V4L2RuntimePower.current(node: path)
      signposter.begin(.deviceOpen, fields: ["device": .string(path)])
      defer { signposter.end(.deviceOpen, fields: ["device": .string(path)]) }
      let handle = try V4L2Handle.open(path, kernel: kernel)
      do throws(V4L2Error) {
        s.capability = try handle.requireCaptureDevice()
      } catch {
        handle.close()
        throw error
      }
      s.handle = handle
      if s.pixelFormats.isEmpty { s.pixelFormats = handle.enumeratePixelFormats() }
    }
  }

  /// Stops the stream, frees the buffers (`v4l2_munmap`, `VIDIOC_REQBUFS` 0) and closes the node.
  public func close() {
    stopStream()
    state.withLock { s in
      guard let handle = s.handle else { return }
      s.pool?.release(on: handle)
      s.pool = nil
      handle.close()
      s.handle = nil
      s.active = nil
      s.outputs = []
      s.still = nil
      s.movieRing = []
    }
    latestFrame.withLock { $0 = nil }
  }

  deinit {
    close()
  }

  /// The open handle, or `invalid_state`.
  func requireHandle(_ s: State) throws(V4L2Error) -> V4L2Handle {
    guard let handle = s.handle else {
      throw .invalidState(path, "the device is not open; call open() first")
    }
    return handle
  }
}
