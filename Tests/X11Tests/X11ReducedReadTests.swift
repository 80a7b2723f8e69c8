import CaptureKit
import SystemCalls
import TestSupport
import TestThreads
import Testing
import X11Display

/// The probe's reduced read of a large window against a real Xvfb: the server scales the window
/// down (RENDER, nearest pixel) and the probe reads that. Every pixel of the image is one of the
/// window's, from one phase; a change to part of the window updates exactly that part; a window
/// partly off the screen is refused as a full read would be. (X11ProbeTests.calibration: the
/// probe still finds the first live frame, never early, and tells stale frames from live ones at
/// 640×480 and 1280×720 read this way.)
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .serialized, .blocking, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct X11ReducedReadTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var width: Int
    var height: Int
    var resolution: X11WindowCapture.Resolution
    var source: X11WindowCapture.Source
    var sharedMemory: Bool
    var scale: Int
    var sharedPixmaps = true
    var testDescription: String {
      "\(width)×\(height) \(resolution) \(source)\(sharedMemory ? "" : " through the socket")\(sharedPixmaps ? "" : " without shared pixmaps") → 1/\(scale)"
    }
  }

  static let cases: [Case] = [
    Case(width: 640, height: 480, resolution: .reduced, source: .window, sharedMemory: true, scale: 2),
    Case(width: 1280, height: 720, resolution: .reduced, source: .window, sharedMemory: true, scale: 4),
    Case(width: 1280, height: 720, resolution: .reduced, source: .window, sharedMemory: false, scale: 4),
    Case(
      width: 1280, height: 720, resolution: .reduced, source: .window, sharedMemory: true, scale: 4,
      sharedPixmaps: false),
    Case(width: 1280, height: 720, resolution: .reduced, source: .screen, sharedMemory: true, scale: 4),
    Case(width: 640, height: 480, resolution: .full, source: .window, sharedMemory: true, scale: 1),
    Case(width: 639, height: 359, resolution: .reduced, source: .window, sharedMemory: true, scale: 1),
  ]

  /// Grey noise, `width`×`height`: every pixel differs from its neighbours, so each phase of a
  /// subsampled read is a different image.
  static func noise(_ width: Int, _ height: Int, seed: UInt64) -> [UInt8] {
    var rng = seed
    return (0..<(width * height)).map { _ in
      rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: rng >> 56)
    }
  }

  /// `image` as a reader taking pixel (`scale`·x + phase.x, `scale`·y + phase.y) sees it.
  static func subsampled(_ image: [UInt8], width: Int, height: Int, scale: Int, phase: (x: Int, y: Int))
    -> [UInt8]
  {
    let (w, h) = (width / scale, height / scale)
    var out = [UInt8](repeating: 0, count: w * h)
    for y in 0..<h {
      for x in 0..<w { out[y * w + x] = image[(scale * y + phase.y) * width + scale * x + phase.x] }
    }
    return out
  }

  static func image(of capture: X11WindowCapture) -> [UInt8] {
    capture.withLuma { base, w, h in Array(UnsafeBufferPointer(start: base, count: w * h)) }
  }

  /// Waits until DAMAGE has told `capture` of a change (10 s at most, stretched by TestTime).
  static func awaitChanges(_ capture: X11WindowCapture) throws -> Bool {
    let deadline = MonotonicClock.now() + 10_000_000_000 * UInt64(TestTime.scale)
    while MonotonicClock.now() < deadline {
      _ = try capture.pollEvents()
      if capture.hasChanges { return true }
      MonotonicClock.sleep(nanoseconds: 1_000_000)  // not a timing assertion: a poll under a deadline
    }
    return false
  }

  @Test(
    "the image is the window at 1/scale size, each pixel one of the window's at one phase; a change to part of the window updates that part",
    arguments: cases)
  func reducedImage(_ c: Case) throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: c.width, height: c.height,
      title: "t", pid: nil)
    defer { presenter.close() }
    let capture = try X11WindowCapture(
      display: server.displayName, authorization: server.authorization, source: c.source,
      resolution: c.resolution, allowsSharedMemory: c.sharedMemory, allowsSharedPixmaps: c.sharedPixmaps)
    defer { capture.close() }
    var shown = Self.noise(c.width, c.height, seed: 1)
    try #require(
      presenter.publish(
        VideoFrame(width: c.width, height: c.height, pixels: shown, sequence: 1, captureTime: 0))
        != nil)
    try capture.watch(presenter.window)
    #expect(capture.scale == c.scale)
    #expect(capture.imageWidth == c.width / c.scale && capture.imageHeight == c.height / c.scale)
    #expect(capture.usesSharedMemory == c.sharedMemory)
    #expect(capture.usesSharedPixmaps == (c.sharedMemory && c.sharedPixmaps))  // Xvfb has them
    try #require(try capture.readChanges() != nil)
    let first = Self.image(of: capture)
    let phases = (0..<(c.scale * c.scale)).map { (x: $0 % c.scale, y: $0 / c.scale) }
    let matching = phases.filter {
      Self.subsampled(shown, width: c.width, height: c.height, scale: c.scale, phase: $0) == first
    }
    try #require(matching.count == 1, "phases matching the window: \(matching)")
    let phase = matching[0]

    // DAMAGE reports the whole window once when it starts watching: read that first.
    try capture.connection.roundTrip()
    _ = try capture.pollEvents()
    if capture.hasChanges { _ = try capture.readChanges() }
    #expect(!capture.hasChanges)

    // A rectangle changes whose first and last pixels, each way, are the pixels the image shows
    // of their blocks (so an image that left out a block the change only partly covers would
    // differ); DAMAGE reports it and the probe reads that part.
    let (x0, y0) = (c.scale * 25 + phase.x, c.scale * 14 + phase.y)
    let (x1, y1) = (c.scale * 34 + phase.x + 1, c.scale * 20 + phase.y + 1)
    let patch = (x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    let patchPixels = Self.noise(patch.width, patch.height, seed: 2)
    #expect(
      presenter.publishPart(patchPixels, x: patch.x, y: patch.y, width: patch.width, height: patch.height))
    for y in 0..<patch.height {
      for x in 0..<patch.width {
        shown[(patch.y + y) * c.width + patch.x + x] = patchPixels[y * patch.width + x]
      }
    }
    #expect(try Self.awaitChanges(capture))
    try #require(try capture.readChanges() != nil)
    let expected = Self.subsampled(shown, width: c.width, height: c.height, scale: c.scale, phase: phase)
    let differing = zip(Self.image(of: capture), expected).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) pixels of the image are not the window's")
    #expect(capture.refusedReads == 0)
  }

  @Test(
    "a window partly off the screen is refused at reduced size exactly when a full read refuses it",
    arguments: [true, false])
  func offScreen(sharedMemory: Bool) throws {
    let server = try XvfbFixture.start()  // a 1280×720 screen
    defer { server.stop() }
    let presenter = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 1400, height: 480, title: "t",
      pid: nil)
    defer { presenter.close() }
    var refused: [X11WindowCapture.Resolution: Bool] = [:]
    for resolution in X11WindowCapture.Resolution.allCases {
      let capture = try X11WindowCapture(
        display: server.displayName, authorization: server.authorization, source: .window,
        resolution: resolution, allowsSharedMemory: sharedMemory)
      defer { capture.close() }
      try capture.watch(presenter.window)
      #expect(capture.scale == (resolution == .reduced ? 2 : 1))
      let read = try capture.readChanges()
      refused[resolution] = read == nil
      #expect(capture.refusedReads == (read == nil ? 1 : 0))
    }
    #expect(refused[.reduced] == refused[.full])
    // MIT-SHM's ShmGetImage refuses a window not entirely on the screen (GetImage through the
    // socket returns the backing store of the presenter's window instead).
    if sharedMemory { #expect(refused[.full] == true) }
  }

}
