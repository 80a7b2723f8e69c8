import CaptureKit
import CV4L2Shims
import SystemCalls
import Testing
import V4L2TestSupport

@testable import V4L2Camera

#if canImport(Glibc)
  import Glibc
#endif

/// Answers no sane driver gives, found by the V4L2 fuzz target (Fuzz/Corpus/v4l2/crash-*): the
/// camera must refuse them, never allocate or multiply its way into a crash.
@Suite struct V4L2HostileDriverTests {
  /// A fake whose answers to `request` get `value` written at byte `offset` of the ioctl's struct.
  static func fake(rewriting request: V4L2Request, _ writes: [(offset: Int, value: UInt32)]) -> FakeV4L2Kernel
  {
    var config = FakeV4L2Kernel.Config()
    config.tamper = { r, argument, result in
      if r == request {
        for w in writes { argument.storeBytes(of: w.value, toByteOffset: w.offset, as: UInt32.self) }
      }
      return result
    }
    return FakeV4L2Kernel(config)
  }

  /// The byte offset of the 32-bit field that `set` writes (C union members have no key-path offset).
  static func offset<T>(_ empty: T, _ set: (inout T, UInt32) -> Void) -> Int {
    var value = empty
    set(&value, 0xA1B2_C3D4)
    return withUnsafeBytes(of: value) { raw in
      (0...(raw.count - 4)).first { raw.loadUnaligned(fromByteOffset: $0, as: UInt32.self) == 0xA1B2_C3D4 }!
    }
  }

  @Test("a driver that confirms a frame size beyond 8192 pixels a side is refused, not allocated")
  func hugeConfirmedSize() throws {
    let width = Self.offset(v4l2_format()) { $0.fmt.pix.width = $1 }
    let height = Self.offset(v4l2_format()) { $0.fmt.pix.height = $1 }
    let fake = Self.fake(rewriting: .setFormat, [(width, 52_000), (height, 54_000)])
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    let error = #expect(throws: V4L2Error.self) {
      try camera.setActiveFormat(
        CaptureFormat(width: 640, height: 480, maxFrameRate: 30, fourCC: "YUYV"), frameRate: 30)
    }
    #expect(error?.code == .formatUnsupported)
    #expect(error?.message.contains("52000x54000") == true, "\(String(describing: error))")
    #expect(camera.activeFormatDescription == nil)
  }

  @Test("frame sizes a driver lists beyond 8192 pixels a side are left out of the formats")
  func hugeListedSizes() throws {
    let width = Self.offset(v4l2_frmsizeenum()) { $0.discrete.width = $1 }
    let height = Self.offset(v4l2_frmsizeenum()) { $0.discrete.height = $1 }
    let fake = Self.fake(rewriting: .enumerateFrameSizes, [(width, 100_000), (height, 100_000)])
    let camera = try V4L2Camera(path: FakeV4L2Kernel.path, kernel: fake.kernel)
    try camera.open()
    #expect(camera.formats.isEmpty, "\(camera.formats)")
    #expect(camera.pixelBudget == 0)
  }
}

extension V4L2HostileDriverTests {
  @Test("a buffer timestamp that is negative or beyond 584 years of nanoseconds reads as the dequeue time")
  func impossibleTimestamps() {
    for (sec, usec) in [(Int.max, 0), (-5, 7), (0, -1), (18_446_744_074, 0), (3, 1_000_000_000)] {
      var buffer = v4l2_buffer()
      buffer.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
      buffer.timestamp.tv_sec = sec
      buffer.timestamp.tv_usec = usec
      let before = MonotonicClock.now()
      let t = BufferPool.captureTime(of: buffer)
      #expect(t >= before && t <= MonotonicClock.now(), "tv_sec \(sec), tv_usec \(usec) → \(t)")
    }
    var plausible = v4l2_buffer()
    plausible.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
    plausible.timestamp.tv_sec = 12
    plausible.timestamp.tv_usec = 345_678
    #expect(BufferPool.captureTime(of: plausible) == 12_345_678_000)
  }
}
