import Display
import LightBoard
import Sampling
import Testing

@testable import Probe
@testable import ProbeCalibration

/// Change detection's run of changing scanouts, judged against the camera's known frame interval:
/// synthetic scanout sequences on a 60 Hz grid fed to the pure detector (no threads, no clocks).
@Suite struct ChangeRunCadenceTests {
  static let w = 160
  static let h = 120
  /// One refresh at 60 Hz, ns.
  static let r: UInt64 = 16_666_667
  /// A 30 fps camera's frame interval, ns.
  static let camera: UInt64 = 33_333_333

  /// Feeds scanouts to a detector that knows the camera's frame interval (`cadence`; nil: not
  /// known) and never reads the light board.
  struct Feed {
    var detector: LiveFrameDetector
    var scene: CalibrationScene
    var sequence: UInt64 = 1
    var black = [UInt8](repeating: 0, count: ChangeRunCadenceTests.w * ChangeRunCadenceTests.h)

    init(cadence: UInt64?, seed: UInt64 = 7) {
      var config = DetectorConfiguration(
        cameraFrameIntervalNanoseconds: cadence, refreshIntervalNanoseconds: ChangeRunCadenceTests.r)
      config.decodesLightBoard = false
      detector = LiveFrameDetector(configuration: config)
      scene = CalibrationScene(
        width: ChangeRunCadenceTests.w, height: ChangeRunCadenceTests.h, kind: .pattern, noiseSigma: 0,
        seed: seed)
    }

    /// A new camera image (the moving pattern's next frame).
    mutating func fresh() -> [UInt8] {
      var px = [UInt8](repeating: 0, count: ChangeRunCadenceTests.w * ChangeRunCadenceTests.h)
      px.withUnsafeMutableBufferPointer {
        scene.render(
          captureTime: 1_000_000_000 + sequence * ChangeRunCadenceTests.camera, sequence: sequence,
          into: $0.baseAddress!)
      }
      sequence += 1
      return px
    }

    /// Shows `px` at refresh `n`; `late`: the probe read it late, right after it was done with
    /// the previous image (X11: the change arrived while it was busy).
    @discardableResult
    mutating func show(_ px: [UInt8], atRefresh n: UInt64, late: Bool = false) -> ScanoutClass {
      px.withUnsafeBufferPointer {
        detector.observe(
          LumaImage(
            base: $0.baseAddress!, width: ChangeRunCadenceTests.w, height: ChangeRunCadenceTests.h,
            bytesPerRow: ChangeRunCadenceTests.w),
          at: 1_000_000_000 + n * ChangeRunCadenceTests.r, seenLate: late)
      }
    }

    /// X11-style reads: only new images are read (on DAMAGE), at the refreshes given, each
    /// `late` or not.
    mutating func read(_ reads: [(refresh: UInt64, image: [UInt8], late: Bool)]) {
      for r in reads { show(r.image, atRefresh: r.refresh, late: r.late) }
    }

    /// Shows `images[n]` (nil: black) on refresh n, from refresh `from` on.
    mutating func play(_ images: [UInt64: [UInt8]], from: UInt64, to: UInt64) {
      var shown = black
      for n in from...to {
        if let px = images[n] { shown = px }
        show(shown, atRefresh: n)
      }
    }

    /// The first live frame's refresh number, if found.
    var firstLiveRefresh: UInt64? {
      detector.firstLiveFrame.map { ($0.scanoutTime - 1_000_000_000) / ChangeRunCadenceTests.r }
    }
  }

  /// A launch armed at refresh 2: black until the first fresh frame at refresh 10.
  static func launch(_ feed: inout Feed) {
    feed.detector.arm(.launch(since: 1_000_000_000 + 2 * r - 1))
  }

  @Test(
    "with the camera's interval known, a first frame whose successor is starved (4 refreshes, then catch-up) is still the first live frame"
  )
  func starvedFirstGap() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    // The presenter is starved after its first frame: the second reaches the screen 4 refreshes
    // (67 ms, within two camera intervals + a refresh) later, then the late frames catch up one
    // per refresh. The observed later gaps (1 refresh) are not the camera's cadence.
    let images: [UInt64: [UInt8]] = [
      10: feed.fresh(), 14: feed.fresh(), 15: feed.fresh(), 16: feed.fresh(), 18: feed.fresh(),
    ]
    feed.play(images, from: 0, to: 20)
    #expect(feed.firstLiveRefresh == 10)
    #expect(feed.detector.firstLiveFrame?.method == .change)
  }

  @Test(
    "with the camera's interval known, a splash screen shown longer than the reach never counts, even when the live frames then catch up"
  )
  func splashWithKnownCadence() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    // The splash from refresh 4 to 9 (100 ms, beyond 2 × 33.3 + 16.7 ms), then live frames that
    // arrive one per refresh.
    let images: [UInt64: [UInt8]] = [
      4: splash, 10: feed.fresh(), 11: feed.fresh(), 12: feed.fresh(), 14: feed.fresh(),
    ]
    feed.play(images, from: 0, to: 16)
    #expect(feed.firstLiveRefresh == 10)
  }

  @Test(
    "with the camera's interval known, one garbage buffer followed by a gap beyond the reach never counts")
  func garbageBufferWithKnownCadence() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    var garbage = [UInt8](repeating: 0, count: Self.w * Self.h)
    var rng = SplitMix64(seed: 3)
    for i in 0..<(Self.w * Self.h / 2) { garbage[i] = UInt8(truncatingIfNeeded: rng.next()) }
    let images: [UInt64: [UInt8]] = [
      3: garbage, 9: feed.fresh(), 11: feed.fresh(), 13: feed.fresh(), 15: feed.fresh(),
    ]
    feed.play(images, from: 0, to: 17)
    #expect(feed.firstLiveRefresh == 9)
  }

  @Test(
    "an image of a new size (the Wayland probe now reads the app's window, not the whole output) is a baseline, never the start of a run"
  )
  func newSizeIsNoChange() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    // The whole output (twice the window's size) shows the app's splash from refresh 4; at
    // refresh 9 the probe reads the window's region instead: the same splash, at another size,
    // one refresh before the first live frame.
    let whole = SplashImage.frame(width: 2 * Self.w, height: 2 * Self.h).pixels
    for n: UInt64 in 0...8 {
      let px = n < 4 ? [UInt8](repeating: 0, count: whole.count) : whole
      _ = px.withUnsafeBufferPointer {
        feed.detector.observe(
          LumaImage(base: $0.baseAddress!, width: 2 * Self.w, height: 2 * Self.h, bytesPerRow: 2 * Self.w),
          at: 1_000_000_000 + n * Self.r)
      }
    }
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    #expect(feed.show(splash, atRefresh: 9) == .waiting)
    let images: [UInt64: [UInt8]] = [
      10: feed.fresh(), 12: feed.fresh(), 14: feed.fresh(), 16: feed.fresh(),
    ]
    for n: UInt64 in 10...18 {
      if let px = images[n] { feed.show(px, atRefresh: n) }
    }
    #expect(feed.firstLiveRefresh == 10)
    #expect(feed.detector.firstLiveFrame?.method == .change)
  }

  @Test("a still image alone (a splash that stays, a cover) is never live: no run of changes follows it")
  func stillImageAlone() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    feed.play([4: splash], from: 0, to: 40)
    #expect(feed.detector.firstLiveFrame == nil)
  }

  @Test(
    "without a known interval, a still image just before the live frames is still judged from the observed gaps"
  )
  func unknownCadenceKeepsObservedRule() {
    var feed = Feed(cadence: nil)
    Self.launch(&feed)
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    // The splash for 6 refreshes (100 ms, within the 100 ms + refresh reach of an unknown camera),
    // then live frames every 2 refreshes: 100 ms > 2 × 33 ms + 17 ms is not part of their cadence.
    let images: [UInt64: [UInt8]] = [
      4: splash, 10: feed.fresh(), 12: feed.fresh(), 14: feed.fresh(), 16: feed.fresh(),
    ]
    feed.play(images, from: 0, to: 18)
    #expect(feed.firstLiveRefresh == 10)
  }

  // MARK: - X11: reads the probe made late (it was busy with the previous image)

  @Test(
    "X11: a later gap that is the probe's own busy time (a late read) does not break the run, so the first read stays the first live frame"
  )
  func lateReadKeepsRun() {
    // As `bench calibrate --display x11` saw under load: the probe read the first two frames on
    // time (82 ms apart, within 2 × 33.3 + 16.7 + 8.3 ms), was then starved while analysing the
    // second at normal priority, and read the next change 130 ms later, right when it was done.
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    feed.read([
      (10, feed.fresh(), false), (15, feed.fresh(), false), (23, feed.fresh(), true),
      (25, feed.fresh(), false),
      (27, feed.fresh(), false),
    ])
    #expect(feed.firstLiveRefresh == 10)
    #expect(feed.detector.firstLiveFrame?.confirmedAt == 1_000_000_000 + 23 * Self.r)
  }

  @Test("X11: a gap beyond the reach that the probe was not busy for still breaks the run")
  func promptGapStillBreaksRun() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    feed.read([
      (10, feed.fresh(), false), (15, feed.fresh(), false), (23, feed.fresh(), false),
      (25, feed.fresh(), false),
      (27, feed.fresh(), false),
    ])
    #expect(feed.firstLiveRefresh == 23)
  }

  @Test(
    "X11: a late read never vouches for the run's first gap: a splash read on time, then live frames read late, is not live"
  )
  func lateReadNeverVouchesForFirstGap() {
    var feed = Feed(cadence: Self.camera)
    Self.launch(&feed)
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    feed.read([
      (4, splash, false), (16, feed.fresh(), true), (18, feed.fresh(), false), (20, feed.fresh(), false),
    ])
    #expect(feed.firstLiveRefresh == 16)
  }

  @Test(
    "X11, camera rate unknown: a late gap does not count as the cadence a still image's first gap is judged by"
  )
  func lateGapNotCadenceWithoutRate() {
    var feed = Feed(cadence: nil)
    Self.launch(&feed)
    let splash = SplashImage.frame(width: Self.w, height: Self.h).pixels
    // The splash 6 refreshes before the live frames (within the unknown camera's reach); the
    // next live frame is read 10 refreshes late, then they come every 2 refreshes. Taken as the
    // cadence, the probe's 10-refresh busy time would let the splash's 6-refresh gap pass
    // (6 ≤ 2 × 10 + 1); the 2-refresh cadence does not. And the late gap cannot vouch for the
    // frame at 10 either, so the first live frame is the late read.
    feed.read([
      (4, splash, false), (10, feed.fresh(), false), (20, feed.fresh(), true), (22, feed.fresh(), false),
      (24, feed.fresh(), false),
    ])
    #expect(feed.firstLiveRefresh == 20)
  }
}
