import CV4L2Shims
import SystemCalls

#if canImport(Glibc)
  import Glibc
#endif

/// An open device node: its descriptor, its path (for errors) and the kernel that serves it.
/// Every call on a device goes through these few functions, and so through ``V4L2Syscall``.
struct V4L2Handle: Sendable {
  /// The descriptor.
  let fd: Int32
  /// The node, e.g. `/dev/video0`.
  let path: String
  /// The seam.
  let kernel: V4L2Kernel

  /// Opens `path` non-blocking (DQBUF then never blocks; the stream thread polls).
  /// Missing nodes, nodes that are not character devices and permission problems get their
  /// own errors; `EACCES` names the node's group.
  static func open(_ path: String, kernel: V4L2Kernel) throws(V4L2Error) -> V4L2Handle {
    guard let node = kernel.nodeInfo(path) else { throw .noSuchDevice(path) }
    guard node.isCharacterDevice else { throw .notACaptureDevice(path, why: "not a character device") }
    let result = V4L2Syscall.retryingInterrupts { kernel.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
    if result < 0 {
      let code = Errno(rawValue: -result)
      switch code.rawValue {
      case EACCES, EPERM:
        throw .permissionDenied(path, errno: code, node: node, groupName: kernel.groupName(node.groupID))
      case ENOENT:
        throw .noSuchDevice(path, errno: code)
      case ELIBACC:
        throw .libraryMissing(path, errno: code)
      default:
        throw .from(errno: code, operation: "open", path: path, streaming: false)
      }
    }
    return V4L2Handle(fd: result, path: path, kernel: kernel)
  }

  /// Issues `request` on `value`; throws on failure.
  func ioctl<T>(_ request: V4L2Request, _ value: inout T, streaming: Bool = false) throws(V4L2Error) {
    _ = try V4L2Syscall.perform(request.rawValue, path: path, streaming: streaming) {
      withUnsafeMutableBytes(of: &value) { kernel.ioctl(fd, request, $0.baseAddress!) }
    }
  }

  /// Issues `request` on `value`; returns 0 or the errno (for enumerations, which end with
  /// `EINVAL`, and for optional features, which fail with `ENOTTY`).
  func ioctlStatus<T>(_ request: V4L2Request, _ value: inout T) -> Int32 {
    let result = V4L2Syscall.retryingInterrupts {
      withUnsafeMutableBytes(of: &value) { kernel.ioctl(fd, request, $0.baseAddress!) }
    }
    return result < 0 ? -result : 0
  }

  /// Asks for `count` memory-mapped buffers of queue `type` (`VIDIOC_REQBUFS`); the number the
  /// driver granted, at least 1.
  /// - Throws: the ioctl's error, or `system_call_failed` when the driver grants none.
  func requestMappedBuffers(_ count: Int, type: UInt32) throws(V4L2Error) -> UInt32 {
    var request = v4l2_requestbuffers()
    request.count = UInt32(count)
    request.type = type
    request.memory = UInt32(V4L2_MEMORY_MMAP.rawValue)
    try ioctl(.requestBuffers, &request)
    guard request.count > 0 else {
      throw V4L2Error(
        code: .systemCallFailed, message: "the driver granted no streaming buffers (out of memory?)",
        operation: V4L2Request.requestBuffers.rawValue, devicePath: path)
    }
    return request.count
  }

  /// Maps buffer memory at `offset` (from `VIDIOC_QUERYBUF`).
  func mmap(length: Int, offset: Int64) throws(V4L2Error) -> UnsafeMutableRawPointer {
    let address = try V4L2Syscall.perform("mmap", path: path) { kernel.mmap(fd, length, offset) }
    return UnsafeMutableRawPointer(bitPattern: address)!
  }

  /// Unmaps buffer memory. Failures are ignored: nothing can be done about them.
  func munmap(_ address: UnsafeMutableRawPointer, length: Int) {
    _ = V4L2Syscall.retryingInterrupts { kernel.munmap(address, length) }
  }

  /// Waits up to `timeoutMilliseconds` for a buffer; `true` when one is ready.
  func poll(timeoutMilliseconds: Int32) throws(V4L2Error) -> Bool {
    try V4L2Syscall.perform("poll", path: path, streaming: true) { kernel.poll(fd, timeoutMilliseconds) } > 0
  }

  /// Closes the descriptor.
  func close() {
    _ = kernel.close(fd)
  }
}
