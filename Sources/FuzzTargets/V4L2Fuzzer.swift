import CaptureKit
import Synchronization
import SystemCalls
import V4L2Camera
import V4L2TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// V4L2 answers, as `V4L2Camera` reads what a driver (or libv4l2) hands back: the fake kernel
/// offers formats the input describes, and a script from the input rewrites its answers — a
/// failure with an errno, or any 32- or 64-bit field of the ioctl's struct overwritten — while
/// the camera opens, lists formats and controls, negotiates, sets up outputs, streams and takes
/// a still. Every frame delivered must be `width × height` luma bytes of a positive size.
///
/// Each rewrite is used once, so a stream that a rewrite stalls resumes: the input is bounded.
enum V4L2Fuzzer {
  enum Rewrite: Sendable {
    case fail(Int32)
    case write32(offset: Int, value: UInt32)
    case write64(offset: Int, value: UInt64)
  }

  static let fourCCs = ["YUYV", "GREY", "UYVY", "NV12", "YU12", "MJPG", "YVYU", "422P"]
  static let errnos: [Int32] = [EINVAL, EBUSY, EAGAIN, EINTR, ENODEV, EIO, ENOMEM, ENOTTY, EPERM, ERANGE]

  static func run(_ data: [UInt8]) -> [String] {
    var input = FuzzInput(data)
    var config = FakeV4L2Kernel.Config()
    config.readyPollNanoseconds = 20_000
    config.idlePollMilliseconds = 1
    config.formats = (0..<input.int(in: 1...3)).map { _ in
      FakeV4L2Kernel.Format(
        fourCC: fourCCs[input.int(in: 0...(fourCCs.count - 1))], emulated: input.byte() & 1 == 1,
        sizes: (0..<input.int(in: 1...3)).map { _ in
          (input.int(in: 1...160), input.int(in: 1...120), [UInt32(input.int(in: 1...120))])
        })
    }
    let steps = input.byte()
    var script: [V4L2Request: [Rewrite]] = [:]
    let requests = V4L2Request.allCases
    while !input.isEmpty {
      let request = requests[input.int(in: 0...(requests.count - 1))]
      let size = FakeV4L2Kernel.argumentBytes(of: request)
      let rewrite: Rewrite
      switch input.byte() % 3 {
      case 0: rewrite = .fail(errnos[input.int(in: 0...(errnos.count - 1))])
      case 1:
        rewrite = .write32(
          offset: input.int(in: 0...(size / 4 - 1)) * 4, value: UInt32(input.unsigned(bytes: 4)))
      default:
        rewrite =
          size >= 8
          ? .write64(offset: input.int(in: 0...(size / 8 - 1)) * 8, value: input.unsigned(bytes: 8))
          : .write32(offset: 0, value: UInt32(input.unsigned(bytes: 4)))
      }
      script[request, default: []].append(rewrite)
    }
    let pending = PThreadMutex(script)
    config.tamper = { request, argument, result in
      let next = pending.withLock { s -> Rewrite? in
        guard var list = s[request], !list.isEmpty else { return nil }
        let first = list.removeFirst()
        s[request] = list
        return first
      }
      switch next {
      case nil: return result
      case .fail(let e): return -e
      case .write32(let offset, let value):
        argument.storeBytes(of: value, toByteOffset: offset, as: UInt32.self)
        return result
      case .write64(let offset, let value):
        argument.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
        return result
      }
    }
    let fake = FakeV4L2Kernel(config)
    return drive(fake, steps: steps)
  }

  /// Takes the camera through what camera-app does with it, choosing by the bits of `steps`.
  static func drive(_ fake: FakeV4L2Kernel, steps: UInt8) -> [String] {
    var problems: [String] = []
    guard let camera = try? V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel) else { return [] }
    defer { camera.close() }
    guard (try? camera.open()) != nil else { return [] }
    _ = camera.localizedName
    if steps & 1 != 0 { _ = try? camera.controls() }
    let formats = camera.formats
    _ = camera.pixelBudget
    if let format = formats.first, steps & 2 != 0 {
      _ = try? camera.setActiveFormat(format, frameRate: format.maxFrameRate)
    }
    _ = camera.activeFormatDescription
    if steps & 4 != 0 { _ = try? camera.initializeOutput(.photo) }
    if steps & 8 != 0 { _ = try? camera.initializeOutput(.movie) }
    if steps & 16 != 0 { _ = try? camera.initializeOutput(.preview) }
    let frames = PThreadMutex<[VideoFrame]>([])
    if (try? camera.startStream({ frame in frames.withLock { if $0.count < 3 { $0.append(frame) } } })) != nil
    {
      let deadline = MonotonicClock.now() + 200_000_000
      _ = MonotonicClock.sleep(until: deadline, slice: 1_000_000) {
        frames.withLock { $0.count >= 3 } || camera.streamFailure != nil
      }
      if steps & 32 != 0, camera.stillSize != nil, let still = try? camera.captureStill() {
        frames.withLock { $0.append(still) }
      }
      camera.stopStream()
    }
    for frame in frames.withLock({ $0 }) {
      if frame.width <= 0 || frame.height <= 0 || frame.pixels.count != frame.width * frame.height {
        problems.append("a \(frame.width)×\(frame.height) frame with \(frame.pixels.count) bytes")
      }
    }
    return problems
  }
}
