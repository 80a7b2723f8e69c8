import CaptureKit
import CV4L2Shims
import SystemCalls
import Testing
import TestSupport
import V4L2TestSupport

@testable import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct V4L2CameraErrorTests {
  @Test("a missing node is 'no such device', naming the path, at init and at validate")
  func missingNode() throws {
    let fake = FakeV4L2Kernel()
    let error = #expect(throws: V4L2Error.self) { try V4L2Camera(path: "/dev/video9", kernel: fake.kernel) }
    #expect(error?.code == .noSuchDevice)
    #expect(error?.description.hasPrefix("/dev/video9: no such device") == true)
    let validated = #expect(throws: V4L2Error.self) {
      try V4L2Camera.validate(path: "/dev/video9", kernel: fake.kernel)
    }
    #expect(validated?.code == .noSuchDevice)
    #expect(!(validated?.description.contains("\n") ?? true))
  }

  @Test("a node that is not a character device is refused")
  func notACharacterDevice() throws {
    var config = FakeV4L2Kernel.Config()
    config.node = V4L2NodeInfo(isCharacterDevice: false, groupID: 0, permissions: 0o644)
    let fake = FakeV4L2Kernel(config)
    let error = #expect(throws: V4L2Error.self) {
      try V4L2Camera.validate(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    }
    #expect(error?.code == .noSuchDevice)
    #expect(error?.message.contains("not a character device") == true)
  }

  @Test("EACCES names the node's group and says to add the user to it")
  func permissionDenied() throws {
    var config = FakeV4L2Kernel.Config()
    config.openErrno = EACCES
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    let error = #expect(throws: V4L2Error.self) { try camera.open() }
    #expect(error?.code == .permissionDenied)
    #expect(error?.errno == Errno(rawValue: EACCES))
    #expect(error?.operation == "open")
    #expect(error?.message.contains("group 'video'") == true)
    #expect(error?.message.contains("usermod -aG video") == true)
  }

  @Test("a missing libv4l2 (ELIBACC from open) is one line naming the package to install")
  func libraryMissing() throws {
    var config = FakeV4L2Kernel.Config()
    config.openErrno = ELIBACC
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    let error = #expect(throws: V4L2Error.self) { try camera.open() }
    #expect(error?.code == .libraryMissing)
    #expect(error?.message.contains("install the package libv4l-0") == true)
    #expect(error?.description.contains("libv4l2.so.0") == true)
    #expect(!(error?.description.contains("\n") ?? true))
  }

  @Test("loading a libv4l2 that is not there says why (the loader's message names the file)")
  func libraryLoadFailure() {
    let why = LibV4L2.load(soname: "libv4l2-firstframe-absent.so.0")
    #expect(why?.contains("libv4l2-firstframe-absent.so.0") == true, "\(why ?? "loaded")")
  }

  @Test("EBUSY at open and at buffer allocation is 'busy' with the ioctl's name")
  func busy() throws {
    var config = FakeV4L2Kernel.Config()
    config.openErrno = EBUSY
    let openError = #expect(throws: V4L2Error.self) {
      try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel).open()
    }
    #expect(openError?.code == .busy)
    #expect(openError?.message.contains("another process") == true)

    var later = FakeV4L2Kernel.Config()
    later.failures[.requestBuffers] = [EBUSY]
    let fake = FakeV4L2Kernel(later)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    try camera.setActiveFormat(CaptureFormat(width: 640, height: 480, maxFrameRate: 30), frameRate: 30)
    let error = #expect(throws: V4L2Error.self) { try camera.initializeOutput(.preview) }
    #expect(error?.code == .busy)
    #expect(error?.operation == "VIDIOC_REQBUFS")
    #expect(error?.devicePath == FakeV4L2Kernel.path)
  }

  @Test("a device without a luma-bearing format is 'format unsupported', listing what it offers")
  func unsupportedFormat() throws {
    var config = FakeV4L2Kernel.Config()
    config.formats = [
      .init(fourCC: "MJPG", sizes: [(640, 480, [30])]), .init(fourCC: "H264", sizes: [(1920, 1080, [30])]),
    ]
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    let error = #expect(throws: V4L2Error.self) {
      try camera.setActiveFormat(CaptureFormat(width: 640, height: 480, maxFrameRate: 30), frameRate: 30)
    }
    #expect(error?.code == .formatUnsupported)
    #expect(error?.message.contains("MJPG, H264") == true)
  }

  @Test("asking for a format the device does not have lists the ones it has")
  func unknownFourCC() throws {
    let fake = FakeV4L2Kernel()
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    let error = #expect(throws: V4L2Error.self) {
      try camera.setActiveFormat(
        CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: "H264"), frameRate: 30)
    }
    #expect(error?.code == .formatUnsupported)
    #expect(error?.message.contains("640x480@30 H264") == true)
    #expect(error?.message.contains("offers: YUYV") == true)
  }

  @Test("ENODEV while streaming ends the stream as 'device gone' after the frames that came")
  func deviceGoneMidStream() throws {
    var config = FakeV4L2Kernel.Config()
    config.dequeueFailure = (afterFrames: 3, errno: ENODEV)
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(blockUntil(timeout: .seconds(10)) { camera.streamFailure != nil })
    camera.stopStream()
    let failure = try #require(camera.streamFailure)
    #expect(failure.code == .deviceGone)
    #expect(failure.errno == Errno(rawValue: ENODEV))
    #expect(failure.operation == "VIDIOC_DQBUF")
    #expect(collector.count == 3)
    camera.close()
  }

  @Test("EIO while streaming is also 'device gone'")
  func ioErrorMidStream() throws {
    var config = FakeV4L2Kernel.Config()
    config.dequeueFailure = (afterFrames: 0, errno: EIO)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    try camera.open()
    try camera.startStream { _ in }
    #expect(blockUntil(timeout: .seconds(10)) { camera.streamFailure != nil })
    camera.stopStream()
    #expect(camera.streamFailure?.code == .deviceGone)
    #expect(camera.streamFailure?.errno == Errno(rawValue: EIO))
  }

  @Test("EINTR is retried: QUERYCAP interrupted twice still opens, after three calls")
  func interruptedCallsAreRetried() throws {
    var config = FakeV4L2Kernel.Config()
    config.failures[.queryCapability] = [EINTR, EINTR]
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    #expect(fake.count(.queryCapability) == 3)
    #expect(camera.localizedName == "Fake Camera (/dev/video0)")
  }

  @Test("a node without video capture is not a capture device")
  func notACaptureDevice() throws {
    var config = FakeV4L2Kernel.Config()
    config.capabilities = UInt32(V4L2_CAP_META_CAPTURE) | UInt32(V4L2_CAP_STREAMING)
    let fake = FakeV4L2Kernel(config)
    let error = #expect(throws: V4L2Error.self) {
      try V4L2Camera.validate(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    }
    #expect(error?.code == .noSuchDevice)
    #expect(error?.message.contains("no video capture capability") == true)
    #expect(V4L2Camera.enumerate(kernel: fake.kernel).isEmpty)
  }

  @Test(
    "validate: a node that does not answer VIDIOC_QUERYCAP (ENOTTY) is no V4L2 device, and a missing libv4l2 is caught after the device passed"
  )
  func validateNoDeviceAndNoLibrary() throws {
    var config = FakeV4L2Kernel.Config()
    config.failures[.queryCapability] = [ENOTTY]
    let error = #expect(throws: V4L2Error.self) {
      try V4L2Camera.validate(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    }
    #expect(error?.code == .noSuchDevice)
    #expect(
      error?.message.contains("does not answer VIDIOC_QUERYCAP") == true, "\(String(describing: error))")
    let missing = #expect(throws: V4L2Error.self) {
      try V4L2Camera.validate(
        path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel, loadLibrary: { "not found" })
    }
    #expect(missing?.code == .libraryMissing)
    try V4L2Camera.validate(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel, loadLibrary: { nil })
  }

  @Test("streaming before open and a still before the photo output are invalid states")
  func invalidStates() throws {
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel)
    #expect(throws: V4L2Error.self) { try camera.startStream { _ in } }
    try camera.open()
    let error = #expect(throws: V4L2Error.self) { _ = try camera.captureStill() }
    #expect(error?.code == .invalidState)
  }
}
