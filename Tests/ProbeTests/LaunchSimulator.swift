import Display
import LightBoard
@testable import Probe
@testable import ProbeCalibration
import Sampling

/// Simulated launches and relocks for the pure detector: scanouts on a 60 Hz grid with a random
/// phase, a 30 fps camera with random present times and jitter, no threads and no clocks.
struct LaunchSimulator {
  enum Scenario: CaseIterable { case launch, relockWithCover, relockWithoutCover }

  /// What the app shows between the arm time and its first fresh frame, meant to fool change
  /// detection (each stays on screen until the first fresh frame, at least 150 ms later).
  enum Trick: CaseIterable {
    /// Nothing: black after a launch, the cover or the frozen frame after a relock.
    case none
    /// A launch: a static, non-black splash image right after the spawn.
    case splash
    /// A launch: one garbage buffer (half noise, half black) right after the spawn.
    case garbageBuffer
    /// A relock: a frame captured before the lock, presented once after the unlock.
    case frameInFlight
    /// A relock: a non-black lock cover (the last frame, dimmed), lifted at unlock to show the
    /// last pre-lock frame again.
    case liftedCover
  }

  struct Outcome {
    var scenario: Scenario
    var kind: CalibrationScene.Kind
    var noise: Double
    var firstPresent: UInt64
    var first: FirstLiveFrame?
    var staleFrames: Int
    var droppedFrames: Int
    var classes: [ScanoutClass]
  }

  static let refresh: UInt64 = 16_666_667
  static let camera: UInt64 = 33_333_333
  /// The presented frames' size, pixels.
  var width = 160
  /// The presented frames' size, pixels.
  var height = 120
  /// The detector sees every `readScale`-th pixel of every `readScale`-th row, as the X11 probe
  /// reads a large window (`X11WindowCapture.scale`); 1: every pixel.
  var readScale = 1

  /// Runs one trial. `dropFreshFrame` skips presenting that fresh frame (a dropped frame).
  func run(
    scenario: Scenario, kind: CalibrationScene.Kind, noise: Double, rng: inout SplitMix64,
    freshFrames: Int = 8, dropFreshFrame: Int? = nil, trick: Trick = .none,
    configuration: DetectorConfiguration = DetectorConfiguration()
  ) -> Outcome {
    let ms: UInt64 = 1_000_000
    var scene = CalibrationScene(
      width: width, height: height, kind: kind, noiseSigma: noise, seed: rng.next())
    let (seenWidth, seenHeight) = (width / readScale, height / readScale)
    var images: [[UInt8]] = [[UInt8](repeating: 0, count: seenWidth * seenHeight)]  // 0: black
    var presents: [(time: UInt64, image: Int)] = []
    var sequence = UInt64.random(in: 1...1000, using: &rng)
    func render(capture: UInt64) -> Int {
      var px = [UInt8](repeating: 0, count: width * height)
      px.withUnsafeMutableBufferPointer {
        scene.render(captureTime: capture, sequence: sequence, into: $0.baseAddress!)
      }
      sequence += 1
      if readScale == 1 {
        images.append(px)
      } else {
        var seen = [UInt8](repeating: 0, count: seenWidth * seenHeight)
        for y in 0..<seenHeight {
          for x in 0..<seenWidth { seen[y * seenWidth + x] = px[readScale * (y * width + x)] }
        }
        images.append(seen)
      }
      return images.count - 1
    }
    func add(_ px: [UInt8]) -> Int {
      images.append(px)
      return images.count - 1
    }
    let base: UInt64 = 10_000 * ms + UInt64.random(in: 0..<1000, using: &rng) * ms
    var armTime: UInt64
    var lastPreLock = 0
    if scenario == .launch {
      armTime = base + UInt64.random(in: 20...100, using: &rng) * ms
    } else {
      for k in 0..<6 {
        let t = base + UInt64(k) * Self.camera + UInt64.random(in: 0...2 * ms, using: &rng)
        lastPreLock = render(capture: t - 5 * ms)
        presents.append((t, lastPreLock))
      }
      let lock = base + 6 * Self.camera
      if trick == .liftedCover {
        let dimmed = images[lastPreLock].map { UInt8(Int($0) * 2 / 5) }
        presents.append((lock + UInt64.random(in: 0...5 * ms, using: &rng), add(dimmed)))
      } else if scenario == .relockWithCover {
        presents.append((lock + UInt64.random(in: 0...5 * ms, using: &rng), 0))
      }
      armTime = lock + UInt64.random(in: 50...200, using: &rng) * ms
    }
    var firstPresent = armTime + UInt64.random(in: 30_000...250_000, using: &rng) * 1000
    if trick != .none {
      // The trick appears just after the arm time and stays at least 150 ms.
      let shown = armTime + UInt64.random(in: 2...20, using: &rng) * ms
      let image: Int
      switch trick {
      case .none: image = 0
      case .splash: image = add(SplashImage.frame(width: width, height: height).pixels)
      case .garbageBuffer:
        var px = [UInt8](repeating: 0, count: width * height)
        for i in 0..<(width * height / 2) { px[i] = UInt8(truncatingIfNeeded: rng.next()) }
        image = add(px)
      case .frameInFlight: image = render(capture: armTime - 120 * ms)
      case .liftedCover: image = lastPreLock
      }
      presents.append((shown, image))
      firstPresent = max(firstPresent, shown + UInt64.random(in: 150...250, using: &rng) * ms)
    }
    for k in 0..<freshFrames where k != dropFreshFrame {
      let t =
        firstPresent + UInt64(k) * Self.camera + (k == 0 ? 0 : UInt64.random(in: 0...2 * ms, using: &rng))
      presents.append((t, render(capture: t - 8 * ms)))
    }
    let mode: ArmMode = scenario == .launch ? .launch(since: armTime) : .unlock(since: armTime)
    var detector = LiveFrameDetector(configuration: configuration)
    detector.arm(mode)
    var classes: [ScanoutClass] = []
    var t = base + UInt64.random(in: 0..<Self.refresh, using: &rng)
    let end = firstPresent + UInt64(freshFrames) * Self.camera
    var shown = 0
    var next = 0
    while t <= end {
      while next < presents.count && presents[next].time <= t {
        shown = presents[next].image
        next += 1
      }
      let c = images[shown].withUnsafeBufferPointer { p in
        detector.observe(
          LumaImage(base: p.baseAddress!, width: seenWidth, height: seenHeight, bytesPerRow: seenWidth), at: t
        )
      }
      classes.append(c)
      t += Self.refresh
    }
    return Outcome(
      scenario: scenario, kind: kind, noise: noise, firstPresent: firstPresent,
      first: detector.firstLiveFrame,
      staleFrames: detector.staleFrames, droppedFrames: detector.droppedFrames, classes: classes)
  }
}
