import LaunchContract
import LightBoard
import PhaseTrace
import Sampling
import Testing

@testable import Probe
@testable import ProbeCalibration

@Suite struct LiveFrameDetectorTests {
  let simulator = LaunchSimulator()

  @Test(
    "over 500 simulated launches and relocks the first live frame is never before the present nor more than one refresh after it",
    arguments: 0..<5)
  func simulatedLaunches(batch: Int) {
    var rng = SplitMix64(seed: 1000 + UInt64(batch))
    let noises: [Double] = [0, 8]
    var failures: [String] = []
    for trial in 0..<100 {
      let scenario = LaunchSimulator.Scenario.allCases[trial % 3]
      let kind = CalibrationScene.Kind.allCases[(trial / 3) % 3]
      let noise = noises[(trial / 9) % 2]
      let o = simulator.run(scenario: scenario, kind: kind, noise: noise, rng: &rng)
      guard let first = o.first else {
        failures.append("miss: \(scenario) \(kind) noise \(noise)")
        continue
      }
      if first.scanoutTime < o.firstPresent {
        failures.append(
          "early by \(o.firstPresent - first.scanoutTime) ns: \(scenario) \(kind) noise \(noise)")
      } else if first.scanoutTime - o.firstPresent > LaunchSimulator.refresh {
        failures.append(
          "late by \(first.scanoutTime - o.firstPresent) ns: \(scenario) \(kind) noise \(noise)")
      }
      // Coverage that arrives with the real light board: clean board frames are found by the board.
      if CalibrationScene.boardDecodes && kind == .board && noise == 0 {
        #expect(first.method == .board)
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of 100: \(failures.prefix(5))")
  }

  @Test(
    "a splash screen, a garbage buffer, a frame in flight from before the unlock and a lifted non-black cover never count as the first live frame",
    arguments: LaunchSimulator.Trick.allCases.filter { $0 != .none })
  func tricksDoNotFoolChangeDetection(trick: LaunchSimulator.Trick) {
    var rng = SplitMix64(seed: 4242 + UInt64(LaunchSimulator.Trick.allCases.firstIndex(of: trick)!))
    let scenarios: [LaunchSimulator.Scenario] =
      [.splash, .garbageBuffer].contains(trick) ? [.launch] : [.relockWithCover, .relockWithoutCover]
    var failures: [String] = []
    for trial in 0..<40 {
      let scenario = scenarios[trial % scenarios.count]
      let kind: CalibrationScene.Kind = trial % 4 < 2 ? .pattern : .lowContrast
      let noise: Double = trial % 2 == 0 ? 0 : 8
      let o = simulator.run(scenario: scenario, kind: kind, noise: noise, rng: &rng, trick: trick)
      guard let first = o.first else {
        failures.append("miss: \(scenario) \(kind) noise \(noise)")
        continue
      }
      if first.scanoutTime < o.firstPresent {
        failures.append(
          "early by \((o.firstPresent - first.scanoutTime) / 1_000_000) ms: \(scenario) \(kind) noise \(noise)"
        )
      } else if first.scanoutTime - o.firstPresent > LaunchSimulator.refresh {
        failures.append(
          "late by \((first.scanoutTime - o.firstPresent) / 1_000_000) ms: \(scenario) \(kind) noise \(noise)"
        )
      }
      if first.method != .change { failures.append("method \(first.method): \(scenario) \(kind)") }
    }
    #expect(failures.isEmpty, "\(trick): \(failures.count) of 40: \(failures.prefix(4))")
  }

  @Test("a relock without a cover shows stale frames; with the black cover it shows none")
  func staleFramesAfterRelock() {
    var rng = SplitMix64(seed: 77)
    for kind in CalibrationScene.Kind.allCases {
      for noise in [0.0, 8.0] {
        let frozen = simulator.run(scenario: .relockWithoutCover, kind: kind, noise: noise, rng: &rng)
        let covered = simulator.run(scenario: .relockWithCover, kind: kind, noise: noise, rng: &rng)
        #expect(frozen.staleFrames > 0, "\(kind) noise \(noise)")
        #expect(frozen.classes.contains(.stale))
        #expect(covered.staleFrames == 0, "\(kind) noise \(noise)")
        #expect(covered.classes.contains(.blank))
        #expect(frozen.first != nil && covered.first != nil)
      }
    }
  }

  @Test(
    "a 30 fps stream on a 60 Hz display drops nothing; a frame missing from it counts as one dropped frame")
  func droppedFrames() {
    var rng = SplitMix64(seed: 5)
    let known = DetectorConfiguration(
      cameraFrameIntervalNanoseconds: LaunchSimulator.camera, refreshIntervalNanoseconds: nil)
    for config in [DetectorConfiguration(), known] {
      let steady = simulator.run(
        scenario: .launch, kind: .pattern, noise: 8, rng: &rng, freshFrames: 30, configuration: config)
      #expect(steady.droppedFrames == 0)
      let dropped = simulator.run(
        scenario: .launch, kind: .pattern, noise: 8, rng: &rng, freshFrames: 30, dropFreshFrame: 20,
        configuration: config)
      #expect(dropped.droppedFrames == 1)
    }
  }

  @Test("the dropped-frame rule allows one refresh of latching slack and counts each missing camera frame")
  func droppedFrameRule() {
    let r: UInt64 = 16_666_667
    let c: UInt64 = 33_333_333
    #expect(LiveFrameDetector.droppedFrames(gap: 2 * r, cadence: c, refresh: r) == 0)
    #expect(LiveFrameDetector.droppedFrames(gap: 3 * r, cadence: c, refresh: r) == 0)
    #expect(LiveFrameDetector.droppedFrames(gap: 4 * r, cadence: c, refresh: r) == 1)
    #expect(LiveFrameDetector.droppedFrames(gap: 5 * r, cadence: c, refresh: r) == 1)
    #expect(LiveFrameDetector.droppedFrames(gap: 6 * r, cadence: c, refresh: r) == 2)
  }

  @Test("black and uniform noisy frames are blank; a 12-level bar on a noisy field is not")
  func blankDetection() {
    let w = 160
    let h = 120
    var detector = LiveFrameDetector()
    detector.arm(.launch(since: 0))
    var black = [UInt8](repeating: 0, count: w * h)
    var low = CalibrationScene(width: w, height: h, kind: .lowContrast, noiseSigma: 8, seed: 4)
    func observe(_ px: [UInt8], _ t: UInt64) -> ScanoutClass {
      px.withUnsafeBufferPointer {
        detector.observe(LumaImage(base: $0.baseAddress!, width: w, height: h, bytesPerRow: w), at: t)
      }
    }
    #expect(observe(black, 1) == .blank)
    var uniformNoisy = [UInt8](repeating: 0, count: w * h)
    var rng = SplitMix64(seed: 9)
    for i in 0..<uniformNoisy.count {
      var s = 0.0
      for _ in 0..<3 { s += Double.random(in: -1...1, using: &rng) }
      uniformNoisy[i] = UInt8(clamping: 120 + Int((s * 8).rounded()))
    }
    #expect(observe(uniformNoisy, 2) == .blank)
    black.withUnsafeMutableBufferPointer {
      low.render(captureTime: 1_000_000_000, sequence: 1, into: $0.baseAddress!)
    }
    // Not blank: the first image of what may become a run of changing scanouts.
    #expect(observe(black, 3) == .waiting)
  }

  @Test("the first live frame event carries scanout time, method and the probe's pid")
  func firstLiveEvent() throws {
    var rng = SplitMix64(seed: 11)
    var config = DetectorConfiguration()
    config.pid = 4321
    let o = simulator.run(
      scenario: .relockWithoutCover, kind: .pattern, noise: 0, rng: &rng, configuration: config)
    let first = try #require(o.first)
    #expect(first.method == .change || CalibrationScene.boardDecodes)
    #expect(first.sinceArmMilliseconds > 0)
  }

  @Test("events: one first-live-frame event with its fields, stale events before it, all with the pid")
  func events() throws {
    let w = 160
    let h = 120
    var config = DetectorConfiguration()
    config.pid = 99
    config.decodesLightBoard = false
    var detector = LiveFrameDetector(configuration: config)
    var scene = CalibrationScene(width: w, height: h, kind: .pattern, noiseSigma: 0, seed: 1)
    func frame(_ t: UInt64, _ seq: UInt64) -> [UInt8] {
      var px = [UInt8](repeating: 0, count: w * h)
      px.withUnsafeMutableBufferPointer { scene.render(captureTime: t, sequence: seq, into: $0.baseAddress!) }
      return px
    }
    let r = LaunchSimulator.refresh
    let s = frame(1_000_000_000, 1)
    let schedule: [(UInt64, [UInt8])] =
      [(1, s), (2, s), (3, s), (4, s)]
      + (5...9).map { ($0, frame(1_500_000_000 + UInt64($0) * 33_000_000, 40 + UInt64($0))) }
    detector.arm(.unlock(since: 2 * r + 1))
    for (i, px) in schedule {
      px.withUnsafeBufferPointer {
        _ = detector.observe(LumaImage(base: $0.baseAddress!, width: w, height: h, bytesPerRow: w), at: i * r)
      }
    }
    let firsts = detector.events.filter { $0.name == EventName.displayFirstLiveFrame.rawValue }
    let stale = detector.events.filter { $0.name == EventName.displayStaleFrame.rawValue }
    #expect(firsts.count == 1)
    #expect(stale.count == 2)
    let e = try #require(firsts.first)
    #expect(e.pid == 99)
    #expect(e.ts == 5 * r)
    #expect(e.fields["method"] == "change")
    #expect(e.fields["scanout_ns"]?.intValue == Int64(5 * r))
    #expect(e.fields["confirmed_ns"]?.intValue == Int64(7 * r))
    #expect(e.fields["changes"]?.intValue == 3)
    #expect(e.fields["capture_time_us"] == nil)
    #expect(detector.staleFrames == 2)
  }
}

@Suite struct RepeatedArmTests {
  @Test("one detector armed again and again keeps the pre-lock content of each relock as its reference")
  func repeatedRelocks() {
    let w = 160
    let h = 120
    var config = DetectorConfiguration()
    config.decodesLightBoard = false
    var detector = LiveFrameDetector(configuration: config)
    var scene = CalibrationScene(width: w, height: h, kind: .lowContrast, noiseSigma: 8, seed: 21)
    let r = LaunchSimulator.refresh
    var t: UInt64 = 1_000_000_000
    var seq: UInt64 = 1
    func show(_ px: [UInt8]) -> ScanoutClass {
      t += r
      return px.withUnsafeBufferPointer {
        detector.observe(LumaImage(base: $0.baseAddress!, width: w, height: h, bytesPerRow: w), at: t)
      }
    }
    func fresh() -> [UInt8] {
      var px = [UInt8](repeating: 0, count: w * h)
      px.withUnsafeMutableBufferPointer { scene.render(captureTime: t, sequence: seq, into: $0.baseAddress!) }
      seq += 1
      return px
    }
    for round in 0..<4 {
      var last = fresh()
      for _ in 0..<6 {
        last = fresh()
        _ = show(last)
        _ = show(last)
      }
      detector.arm(.unlock(since: t + 1))
      #expect(show(last) == .stale, "round \(round)")
      #expect(show(last) == .stale, "round \(round)")
      #expect(show(fresh()) == .waiting, "round \(round)")
      let firstFresh = t
      #expect(show(fresh()) == .waiting, "round \(round)")
      #expect(show(fresh()) == .firstLive, "round \(round)")
      #expect(detector.firstLiveFrame?.scanoutTime == firstFresh, "round \(round)")
      #expect(detector.staleFrames == 2)
    }
  }
}

/// The X11 probe reads a large window at reduced size (`X11WindowCapture.scale`: every 2nd pixel
/// of every 2nd row of a 640×480 window, every 4th of a 1280×720 one): the detector still finds
/// each first live frame in time and tells stale frames from live ones on that view.
@Suite struct ReducedReadDetectionTests {
  @Test(
    "a window read at 1/2 (640×480) or 1/4 (1280×720) size: the first live frame is never early nor more than one refresh late; stale frames without the cover, none with it",
    arguments: [(640, 480, 2), (1280, 720, 4)])
  func reducedRead(width: Int, height: Int, scale: Int) {
    let simulator = LaunchSimulator(width: width, height: height, readScale: scale)
    var rng = SplitMix64(seed: 4000 + UInt64(width))
    var failures: [String] = []
    var methods: [DetectionMethod: Int] = [:]
    for trial in 0..<18 {
      let scenario = LaunchSimulator.Scenario.allCases[trial % 3]
      let kind = CalibrationScene.Kind.allCases[(trial / 3) % 3]
      let noise = trial < 9 ? 0.0 : 8.0
      let o = simulator.run(scenario: scenario, kind: kind, noise: noise, rng: &rng)
      let name = "\(scenario) \(kind) noise \(noise)"
      guard let first = o.first else {
        failures.append("miss: \(name)")
        continue
      }
      methods[first.method, default: 0] += 1
      if first.scanoutTime < o.firstPresent {
        failures.append("early by \(o.firstPresent - first.scanoutTime) ns: \(name)")
      } else if first.scanoutTime - o.firstPresent > LaunchSimulator.refresh {
        failures.append("late by \(first.scanoutTime - o.firstPresent) ns: \(name)")
      }
      switch scenario {
      case .launch: break
      case .relockWithoutCover:
        if o.staleFrames == 0 || !o.classes.contains(.stale) { failures.append("no stale frame: \(name)") }
      case .relockWithCover:
        if o.staleFrames != 0 || !o.classes.contains(.blank) {
          failures.append("stale under the cover: \(name)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.count) of 18: \(failures.prefix(5))")
    if CalibrationScene.boardDecodes { #expect(methods[.board, default: 0] >= 3, "\(methods)") }
  }
}
