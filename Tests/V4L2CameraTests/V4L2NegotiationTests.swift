import CaptureKit
import Testing
import TestSupport
import V4L2TestSupport

@testable import V4L2Camera

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct V4L2NegotiationTests {
  static let sizes = [
    V4L2FrameSize(width: 320, height: 240, intervals: []),
    V4L2FrameSize(width: 640, height: 480, intervals: []),
    V4L2FrameSize(width: 1280, height: 720, intervals: []),
  ]

  @Test("the offered size nearest the request is chosen")
  func closestSize() {
    #expect(FormatNegotiator.closestSize(to: 700, 500, in: Self.sizes)?.width == 640)
    #expect(FormatNegotiator.closestSize(to: 1000, 700, in: Self.sizes)?.width == 1280)
    #expect(FormatNegotiator.closestSize(to: 4000, 3000, in: Self.sizes)?.width == 1280)
    #expect(FormatNegotiator.closestSize(to: 640, 480, in: Self.sizes)?.height == 480)
    #expect(FormatNegotiator.closestSize(to: 640, 480, in: []) == nil)
  }

  @Test("the slowest rate that meets the request is chosen, else the fastest")
  func intervalChoice() {
    let intervals = [60, 30, 15].map { V4L2FrameInterval(numerator: 1, denominator: UInt32($0)) }
    #expect(FormatNegotiator.interval(for: 30, in: intervals)?.framesPerSecond == 30)
    #expect(FormatNegotiator.interval(for: 29.97, in: intervals)?.framesPerSecond == 30)
    #expect(FormatNegotiator.interval(for: 20, in: intervals)?.framesPerSecond == 30)
    #expect(FormatNegotiator.interval(for: 100, in: intervals)?.framesPerSecond == 60)
    #expect(FormatNegotiator.interval(for: 5, in: intervals)?.framesPerSecond == 15)
    #expect(FormatNegotiator.interval(for: 30, in: []) == nil)
  }

  @Test("native luma formats beat converted ones; GREY beats YUYV")
  func pixelFormatChoice() {
    let grey = V4L2PixelFormat(fourCC: "GREY", name: "")
    let yuyv = V4L2PixelFormat(fourCC: "YUYV", name: "")
    let mjpg = V4L2PixelFormat(fourCC: "MJPG", name: "")
    let yu12 = V4L2PixelFormat(fourCC: "YU12", name: "", isEmulated: true)
    #expect(FormatNegotiator.lumaFormat(from: [yuyv, grey])?.fourCC == "GREY")
    #expect(FormatNegotiator.lumaFormat(from: [yu12, yuyv])?.fourCC == "YUYV")
    #expect(FormatNegotiator.lumaFormat(from: [mjpg, yu12])?.fourCC == "YU12")
    #expect(FormatNegotiator.lumaFormat(from: [mjpg]) == nil)
  }

  @Test("the camera negotiates the nearest size and the interval through S_FMT and S_PARM")
  func negotiationThroughTheKernel() throws {
    let fake = FakeV4L2Kernel()
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    try camera.setActiveFormat(
      CaptureFormat(width: 700, height: 500, maxFrameRate: 30, fourCC: "GREY"), frameRate: 20)
    #expect(camera.activeFormatDescription == "640x480@30 YUYV")
    #expect(fake.framesPerSecond == 30)
    try camera.setActiveFormat(CaptureFormat(width: 1280, height: 720, maxFrameRate: 30), frameRate: 30)
    #expect(camera.activeFormatDescription == "1280x720@10 YUYV")
    #expect(fake.count(.setParameters) == 2)
  }

  @Test("a device with only MJPEG streams the YUV 4:2:0 that libv4l2 converts to")
  func fallbackToConvertedFormat() throws {
    var config = FakeV4L2Kernel.Config()
    config.formats = [
      .init(fourCC: "MJPG", sizes: [(640, 480, [30]), (1920, 1080, [15])]),
      .init(fourCC: "YU12", emulated: true, sizes: [(640, 480, [30]), (1920, 1080, [15])]),
    ]
    let fake = FakeV4L2Kernel(config)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    #expect(camera.formats.map(\.description) == ["640x480@30 YU12", "1920x1080@15 YU12"])
    try camera.setActiveFormat(
      CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: "MJPG"), frameRate: 30)
    #expect(camera.activeFormatDescription == "640x480@30 YU12")
    let collector = Collector<VideoFrame>()
    try camera.startStream(collector.append)
    #expect(collector.blockUntilCount(2, timeout: .seconds(10)))
    camera.stopStream()
    let first = try #require(collector.values.first)
    #expect(first.pixels.allSatisfy { $0 == FakeV4L2Kernel.luma(ofFrame: 0) })
  }

  @Test(
    "formats list the sizes with a live preview rate largest first, then the slower ones, and the pixel budget is the largest w×h×rate"
  )
  func formatsAndBudget() throws {
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel().kernel)
    #expect(camera.formats.map(\.description) == ["640x480@30 YUYV", "320x240@60 YUYV", "1280x720@10 YUYV"])
    #expect(camera.pixelBudget == Double(1280 * 720 * 10))
  }

  @Test("the default format of a vivid-like webcam is its largest live one (640x480@25), not 3840x2160@2")
  func defaultFormatKeepsALiveRate() throws {
    // vivid's webcam input: the bigger the size, the fewer (slower) intervals.
    var config = FakeV4L2Kernel.Config()
    config.formats = [
      FakeV4L2Kernel.Format(
        fourCC: "YUYV",
        sizes: [
          (320, 180, [60, 30]), (640, 360, [40, 30]), (640, 480, [25, 15]), (1280, 720, [12, 10]),
          (1920, 1080, [5, 4]), (3840, 2160, [2, 1]),
        ])
    ]
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(camera.formats.first?.description == "640x480@25 YUYV")
    #expect(camera.formats[3].description == "3840x2160@2 YUYV", "then the slower sizes, largest first")
    #expect(camera.formats.count == 6)
  }

  @Test(
    "a camera whose sizes have unknown frame rates (vivid's HDMI input: no ENUM_FRAMEINTERVALS) streams the size nearest 640x480 by default, not its largest"
  )
  func defaultFormatWithUnknownRates() throws {
    var config = FakeV4L2Kernel.Config()
    config.formats = [
      FakeV4L2Kernel.Format(
        fourCC: "YUYV",
        sizes: [(320, 240, []), (640, 480, []), (1280, 720, []), (1920, 1080, []), (3840, 2160, [])])
    ]
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(camera.formats.first.map { "\($0.width)x\($0.height)" } == "640x480")
    #expect(camera.formats.count == 5)

    // Sizes with a known live rate still come first; the unknown ones before the known slow ones.
    config.formats = [
      FakeV4L2Kernel.Format(
        fourCC: "YUYV", sizes: [(320, 240, [30]), (640, 480, []), (1280, 720, [5]), (3840, 2160, [])])
    ]
    let mixed = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(
      mixed.formats.map { "\($0.width)x\($0.height)" } == ["320x240", "640x480", "3840x2160", "1280x720"])
  }

  @Test(
    "a scaler with a native size (vivid's HDMI input: a stepwise range to 16384x8640, one rate for every size, DV timings 640x480) streams its native size by default, not an upscaled one"
  )
  func scalerStreamsItsNativeSize() throws {
    var config = FakeV4L2Kernel.Config()
    var format = FakeV4L2Kernel.Format(fourCC: "GREY", sizes: [])
    format.range = (16, 16, 16384, 8640, 60)
    config.formats = [format]
    config.dvTimings = (640, 480)
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(camera.formats.map { "\($0.width)x\($0.height)" } == ["640x480", "320x240"])

    // Native 1280x720: the common sizes up to it, it first.
    config.dvTimings = (1280, 720)
    let hd = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(hd.formats.map { "\($0.width)x\($0.height)" } == ["1280x720", "640x480", "320x240"])

    // No DV timings (a scaler on a webcam-like input): the common sizes and the range's maximum
    // within the believable limit, as before.
    config.dvTimings = nil
    let unknown = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: FakeV4L2Kernel(config).kernel)
    #expect(unknown.formats.first.map { "\($0.width)x\($0.height)" } == "3840x2160")
  }

  @Test("luma comes out of planar and packed buffers with padded rows")
  func lumaExtraction() {
    // 2×2 frame, 4 bytes per row in the plane case; UYVY with 6 bytes per row.
    let plane: [UInt8] = [1, 2, 99, 99, 3, 4, 99, 99]
    let uyvy: [UInt8] = [128, 1, 128, 2, 99, 99, 128, 3, 128, 4, 99, 99]
    let a = plane.withUnsafeBytes { LumaLayout.plane.extract(from: $0, width: 2, height: 2, bytesPerLine: 4) }
    let b = uyvy.withUnsafeBytes {
      LumaLayout(fourCC: "UYVY")!.extract(from: $0, width: 2, height: 2, bytesPerLine: 6)
    }
    #expect(a == [1, 2, 3, 4])
    #expect(b == [1, 2, 3, 4])
    #expect(LumaLayout(fourCC: "MJPG") == nil)
  }

  @Test("four-character codes round-trip")
  func fourCC() {
    #expect(FourCC.text(FourCC.code("YUYV")) == "YUYV")
    #expect(FourCC.code("YUYV") == 0x5659_5559)
    #expect(FourCC.text(FourCC.code("Y10")) == "Y10 ")
  }
}
