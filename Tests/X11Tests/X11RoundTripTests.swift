#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import SystemCalls
import TestSupport
import TestThreads
import Testing
import X11Display

/// The X client against a real Xvfb: what a window shows is what was presented, pixel for pixel.
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct X11RoundTripTests {
  static func frame(width: Int, height: Int, seed: UInt8) -> VideoFrame {
    var pixels = [UInt8](repeating: 0, count: width * height)
    for y in 0..<height {
      for x in 0..<width { pixels[y * width + x] = UInt8(truncatingIfNeeded: x &* 3 &+ y &* 7 &+ Int(seed)) }
    }
    return VideoFrame(width: width, height: height, pixels: pixels, sequence: UInt64(seed), captureTime: 1)
  }

  @Test("a presented grey frame reads back exactly through DAMAGE and MIT-SHM")
  func presentAndReadBack() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let capture = try X11WindowCapture(display: server.displayName, authorization: server.authorization)
    defer { capture.close() }
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 64, height: 48, title: "test",
      pid: 4242)
    defer { presenter.close() }
    #expect(presenter.usesSharedMemory)
    #expect(capture.usesSharedMemory)
    var mapped: UInt32?
    let deadline = MonotonicClock.now() &+ 5_000_000_000
    while mapped == nil && MonotonicClock.now() < deadline {
      for case .mapped(let window, _) in try capture.pollEvents() { mapped = window }
      MonotonicClock.sleep(nanoseconds: 1_000_000)  // not a timing assertion: a poll under a deadline
    }
    let window = try #require(mapped)
    #expect(capture.processID(of: window) == 4242)
    try capture.watch(window)
    let frame = Self.frame(width: 64, height: 48, seed: 5)
    let presented = presenter.publish(frame)
    try #require(presented != nil, "the presenter lost its connection")
    var inHand: UInt64?
    while inHand == nil && MonotonicClock.now() < deadline {
      _ = try capture.pollEvents()
      inHand = try capture.readChanges()
      if inHand == nil { MonotonicClock.sleep(nanoseconds: 1_000_000) }  // not a timing assertion: a poll
    }
    #expect(try #require(inHand) >= presented!)
    let pixels = capture.withLuma { base, w, h in Array(UnsafeBufferPointer(start: base, count: w * h)) }
    let differing = zip(pixels, frame.pixels).filter { $0 != $1 }.count
    #expect(pixels.count == frame.pixels.count && differing == 0, "\(differing) pixels differ")
  }

  @Test(
    "a display with no server: the connection error names the errno XCB's failed system call left (here ECONNREFUSED or ENOENT)"
  )
  func noServerNamesTheErrno() throws {
    // :4999: no socket at /tmp/.X11-unix/X4999 (and nothing listening on its abstract name).
    do {
      _ = try X11Connection(display: ":4999", libraries: X11Library.probing)
      Issue.record("connected to :4999")
    } catch {
      #expect(error.code == .cannotConnect, "\(error.message)")
      let cause = try #require(error.errno, "\(error.message)")
      #expect(cause.rawValue == ENOENT || cause.rawValue == ECONNREFUSED, "\(error.message)")
      #expect(error.message.hasSuffix(": \(cause.message))"), "\(error.message)")
    }
  }
}
