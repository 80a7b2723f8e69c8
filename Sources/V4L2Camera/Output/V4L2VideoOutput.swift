import CV4L2Shims
import Synchronization
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// A V4L2 video output node (`V4L2_BUF_TYPE_VIDEO_OUTPUT`, memory-mapped streaming): a writer
/// fills a free buffer and queues it; the driver shows it and hands it back. vivid loops its output
/// node into its capture node, so what is written here is what a capturing app receives.
///
/// Every call goes through ``V4L2Kernel`` (the fake kernel in tests). The state sits behind one
/// `Mutex`; one thread (the writer) is expected to call ``configure(like:)`` and ``send(_:)``.
public final class V4L2VideoOutput: Sendable {
  /// The output node, e.g. `/dev/video2`.
  public let path: String
  let handle: V4L2Handle

  struct State: Sendable {
    var layout: V4L2FrameLayout?
    var buffers: [MappedBuffer] = []
    /// Buffers never queued since the last `configure`, lowest index first.
    var fresh: [Int] = []
    /// Buffers whose content was written at least once since `configure` (they keep it).
    var written: Set<Int> = []
    var streaming = false
  }
  let state = Mutex(State())

  /// The number of buffers requested (`VIDIOC_REQBUFS`).
  public static let bufferCount = 4
  /// The output buffer type.
  static let outputType = UInt32(V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)

  /// Opens the node (`v4l2_open`) and checks `VIDIOC_QUERYCAP` for video output with streaming.
  /// - Throws: `V4L2Error` (`no_such_device` when the node is missing or cannot output video).
  public init(path: String, kernel: V4L2Kernel = .system) throws(V4L2Error) {
    let handle = try V4L2Handle.open(path, kernel: kernel)
    do throws(V4L2Error) {
      let cap = try handle.queryCapability()
      guard cap.deviceCapabilities & UInt32(V4L2_CAP_VIDEO_OUTPUT) != 0 else {
        throw .notACaptureDevice(path, why: "no video output capability")
      }
      guard cap.canStream else { throw .notACaptureDevice(path, why: "no streaming I/O") }
    } catch {
      handle.close()
      throw error
    }
    self.path = path
    self.handle = handle
  }

  deinit {
    state.withLock { s in release(&s) }
    handle.close()
  }

  /// The format the buffers have, once ``configure(like:)`` succeeded.
  public var layout: V4L2FrameLayout? { state.withLock { $0.layout } }

  /// Sets the output format to `wanted`'s pixel format and size (`VIDIOC_S_FMT`), then requests
  /// and maps ``bufferCount`` buffers (`VIDIOC_REQBUFS`, `VIDIOC_QUERYBUF`, `v4l2_mmap`). A
  /// stream running is stopped first (`VIDIOC_STREAMOFF`) and the old buffers freed. Returns the
  /// layout the driver confirmed (it may differ from `wanted`).
  @discardableResult
  public func configure(like wanted: V4L2FrameLayout) throws(V4L2Error) -> V4L2FrameLayout {
    try state.withLock { (s) throws(V4L2Error) -> V4L2FrameLayout in
      release(&s)
      var format = wanted.formatRequest(type: Self.outputType)
      try handle.ioctl(.setFormat, &format)
      let pix = format.fmt.pix
      guard pix.width > 0, pix.height > 0, pix.width <= V4L2Camera.maxDimension,
        pix.height <= V4L2Camera.maxDimension
      else {
        throw .formatUnsupported(
          path, wanted: "\(wanted) (the driver confirmed \(pix.width)x\(pix.height))", available: [],
          operation: V4L2Request.setFormat.rawValue)
      }
      let layout = V4L2FrameLayout(pix)
      let granted = try handle.requestMappedBuffers(Self.bufferCount, type: Self.outputType)
      for index in 0..<granted {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = Self.outputType
        buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
        do throws(V4L2Error) {
          try handle.ioctl(.queryBuffer, &buffer)
          let address = try handle.mmap(length: Int(buffer.length), offset: Int64(buffer.m.offset))
          s.buffers.append(MappedBuffer(address: UInt(bitPattern: address), length: Int(buffer.length)))
        } catch {
          release(&s)
          throw error
        }
      }
      s.fresh = Array(s.buffers.indices)
      s.layout = layout
      return layout
    }
  }

  /// One frame: takes a free buffer (one never queued, else one the driver has shown, by a
  /// non-blocking `VIDIOC_DQBUF`), lets `fill` write it (its bytes, the layout, and whether the
  /// buffer already holds an earlier frame of this layout, so only what changes need be
  /// written), queues it (`VIDIOC_QBUF`, `bytesused` = `sizeimage`) and, the first time,
  /// starts the stream (`VIDIOC_STREAMON`). Returns false, writing nothing, when no buffer is
  /// free (the driver still holds them all: the writer is ahead of the display).
  /// - Throws: `invalid_state` before ``configure(like:)``; the ioctls' errors.
  public func send(
    _ fill: (_ bytes: UnsafeMutableRawBufferPointer, _ layout: V4L2FrameLayout, _ reused: Bool) -> Void
  ) throws(V4L2Error) -> Bool {
    try state.withLock { (s) throws(V4L2Error) -> Bool in
      guard let layout = s.layout else {
        throw .invalidState(path, "the output has no format; call configure(like:) first")
      }
      let index: Int
      if !s.fresh.isEmpty {
        index = s.fresh.removeFirst()
      } else {
        var buffer = v4l2_buffer()
        buffer.type = Self.outputType
        buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
        do throws(V4L2Error) {
          try handle.ioctl(.dequeueBuffer, &buffer, streaming: true)
        } catch {
          if error.errno == .wouldBlock { return false }
          throw error
        }
        guard s.buffers.indices.contains(Int(buffer.index)) else {
          throw V4L2Error(
            code: .systemCallFailed,
            message: "the driver returned buffer \(buffer.index), which was never mapped",
            operation: V4L2Request.dequeueBuffer.rawValue, devicePath: path)
        }
        index = Int(buffer.index)
      }
      let mapped = s.buffers[index]
      let count = min(mapped.length, layout.sizeImage > 0 ? layout.sizeImage : mapped.length)
      fill(
        UnsafeMutableRawBufferPointer(
          start: UnsafeMutableRawPointer(bitPattern: mapped.address), count: count),
        layout, s.written.contains(index))
      s.written.insert(index)
      var buffer = v4l2_buffer()
      buffer.index = UInt32(index)
      buffer.type = Self.outputType
      buffer.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
      buffer.bytesused = UInt32(count)
      buffer.field = UInt32(V4L2_FIELD_NONE.rawValue)
      try handle.ioctl(.queueBuffer, &buffer, streaming: true)
      if !s.streaming {
        var type = Int32(Self.outputType)
        try handle.ioctl(.streamOn, &type)
        s.streaming = true
      }
      return true
    }
  }

  /// Stops the stream and frees the buffers (`VIDIOC_STREAMOFF`, `v4l2_munmap`, `VIDIOC_REQBUFS` 0).
  public func stop() {
    state.withLock { s in release(&s) }
  }

  private func release(_ s: inout State) {
    if s.streaming {
      var type = Int32(Self.outputType)
      _ = handle.ioctlStatus(.streamOff, &type)
      s.streaming = false
    }
    for buffer in s.buffers {
      if let address = UnsafeMutableRawPointer(bitPattern: buffer.address) {
        handle.munmap(address, length: buffer.length)
      }
    }
    if !s.buffers.isEmpty {
      var request = v4l2_requestbuffers()
      request.type = Self.outputType
      request.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
      _ = handle.ioctlStatus(.requestBuffers, &request)
    }
    s.buffers = []
    s.fresh = []
    s.written = []
    s.layout = nil
  }
}
