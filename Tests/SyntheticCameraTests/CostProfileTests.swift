import CaptureKit
import Foundation
import LaunchContract
import TestSupport
import Testing
@testable import SyntheticCamera

@Suite struct CostProfileTests {
  @Test("the profiles in Benchmarks/profiles load", arguments: ["default.json", "noisy.json", "fast.json"])
  func shippedProfilesLoad(file: String) throws {
    let profile = try CostProfile.load(path: Fixtures.profilePath(file))
    #expect(profile.name + ".json" == file)
  }

  @Test("the embedded default profile is byte for byte Benchmarks/profiles/default.json")
  func embeddedDefaultMatchesFile() throws {
    let file = try String(contentsOfFile: Fixtures.profilePath("default.json"), encoding: .utf8)
    #expect(file == CostProfile.defaultJSON + "\n")
    #expect(try CostProfile.load(path: Fixtures.profilePath("default.json")) == CostProfile.default)
  }

  @Test("the noisy profile has sigma about 8 and the fast one only tiny costs")
  func noisyAndFast() throws {
    let noisy = try CostProfile.load(path: Fixtures.profilePath("noisy.json"))
    #expect(noisy.noiseSigma >= 7 && noisy.noiseSigma <= 9)
    let fast = try Fixtures.fast
    for kind in CaptureOutputKind.allCases { #expect(fast.costs.initialization(of: kind).ms <= 5) }
  }

  @Test("the default profile is designed so eager takes 2.0–2.5× as long as deferred, cold and warm")
  func defaultNominalRatio() {
    let profile = CostProfile.default
    for warm in [false, true] {
      let deferred = profile.nominalOpenToFirstFrameMs(initializing: [.preview], warm: warm)
      let eager = profile.nominalOpenToFirstFrameMs(initializing: [.preview, .photo, .movie], warm: warm)
      #expect(eager / deferred >= 2.0 && eager / deferred <= 2.5, "warm: \(warm), ratio \(eager / deferred)")
    }
  }

  @Test("a missing field is named")
  func missingField() throws {
    let json = try Fixtures.defaultJSON(setting: ["costs", "photo_init", "ms"], to: nil)
    let error = #expect(throws: ProfileError.self) {
      try CostProfile.decode(json: json, source: "default.json")
    }
    #expect(error?.code == .missingField)
    #expect(error?.field == "costs.photo_init.ms")
    #expect(error?.message == "profile default.json: field costs.photo_init.ms is missing")
  }

  @Test("a field of the wrong type is named with what it must be")
  func wrongType() throws {
    let json = try Fixtures.defaultJSON(setting: ["costs", "photo_init", "ms"], to: "slow")
    let error = #expect(throws: ProfileError.self) {
      try CostProfile.decode(json: json, source: "default.json")
    }
    #expect(error?.code == .wrongType)
    #expect(
      error?.message == "profile default.json: field costs.photo_init.ms must be a number from 0 to 3600000")
  }

  @Test("a negative cost is named")
  func negativeCost() throws {
    let json = try Fixtures.defaultJSON(setting: ["costs", "photo_init", "ms"], to: -5)
    let error = #expect(throws: ProfileError.self) {
      try CostProfile.decode(json: json, source: "default.json")
    }
    #expect(error?.code == .outOfRange)
    #expect(
      error?.message == "profile default.json: field costs.photo_init.ms must be a number from 0 to 3600000")
  }

  @Test("an unknown cost kind, a bad binned format and a zero frame interval are named")
  func otherFields() throws {
    let a = try Fixtures.defaultJSON(setting: ["costs", "movie_init", "kind"], to: "firmware")
    let e1 = #expect(throws: ProfileError.self) { try CostProfile.decode(json: a, source: "a.json") }
    #expect(e1?.message == "profile a.json: field costs.movie_init.kind must be \"hardware\" or \"software\"")

    let b = try Fixtures.defaultJSON(setting: ["sensor", "binned", 0, "width"], to: 64.5)
    let e2 = #expect(throws: ProfileError.self) { try CostProfile.decode(json: b, source: "b.json") }
    #expect(e2?.field == "sensor.binned[0].width")
    #expect(
      e2?.message == "profile b.json: field sensor.binned[0].width must be a whole number from 160 to 8192")

    let c = try Fixtures.defaultJSON(setting: ["frame_interval_ms"], to: 0)
    let e3 = #expect(throws: ProfileError.self) { try CostProfile.decode(json: c, source: "c.json") }
    #expect(e3?.message == "profile c.json: field frame_interval_ms must be a number from 1 to 1000")

    let d = try Fixtures.defaultJSON(setting: ["sensor"], to: nil)
    let e4 = #expect(throws: ProfileError.self) { try CostProfile.decode(json: d, source: "d.json") }
    #expect(e4?.message == "profile d.json: field sensor is missing")
  }

  @Test("a profile without binned formats loads with none")
  func binnedOptional() throws {
    let json = try Fixtures.defaultJSON(setting: ["sensor", "binned"], to: nil)
    let profile = try CostProfile.decode(json: json, source: "x.json")
    #expect(profile.sensor.binned.isEmpty && profile.sensor.formats.count == 1)
  }

  @Test("a file that is not JSON, and a missing file, give one line naming the file")
  func badFiles() throws {
    let path = temporaryFolder("state") + "/broken.json"
    try Data("{ not json".utf8).write(to: URL(fileURLWithPath: path))
    let e1 = #expect(throws: ProfileError.self) { try CostProfile.load(path: path) }
    #expect(e1?.code == .invalidJSON)
    #expect(e1?.message == "profile \(path): not valid JSON")

    let missing = temporaryFolder("state") + "/absent.json"
    let e2 = #expect(throws: ProfileError.self) { try CostProfile.load(path: missing) }
    #expect(e2?.code == .unreadable)
    #expect(
      e2.map {
        $0.message.hasPrefix("profile \(missing): cannot read the file") && !$0.message.contains("\n")
      } == true)
  }

  @Test("the sensor's formats are the full-resolution one first, then binned ones")
  func formats() {
    let camera = SyntheticCamera(profile: .default, stateDirectory: temporaryFolder("state"))
    #expect(camera.formats.first == CaptureFormat(width: 1280, height: 720, maxFrameRate: 30))
    #expect(camera.formats.dropFirst().allSatisfy(\.isBinned) && camera.formats.count == 2)
    #expect(camera.pixelBudget == CostProfile.default.sensor.pixelBudget)
  }
}

@Suite struct CostProfileBoundsTests {
  func message(_ path: [any Sendable], _ value: Any?) throws -> String? {
    let json = try Fixtures.defaultJSON(setting: path, to: value)
    do {
      _ = try CostProfile.decode(json: json, source: "p.json")
      return nil
    } catch {
      return error.code == .outOfRange ? error.message : "\(error.code): \(error.message)"
    }
  }

  @Test(
    "values the camera cannot carry out are refused with their bound: waits that overflow the clock, rates that divide by zero, multi-GB sensors"
  )
  func upperBounds() throws {
    // A cost in ns (ms × 1e6) must fit the monotonic clock's UInt64 and the run timeout.
    #expect(
      try message(["costs", "power_up_cold", "ms"], 1e300)
        == "profile p.json: field costs.power_up_cold.ms must be a number from 0 to 3600000")
    #expect(
      try message(["costs", "photo_init", "ms"], 1e15)
        == "profile p.json: field costs.photo_init.ms must be a number from 0 to 3600000")
    // 1e9 / rate ns per frame: a rate near zero overflows, a huge one rounds to 0 ns.
    #expect(
      try message(["sensor", "max_frame_rate"], 1e-300)
        == "profile p.json: field sensor.max_frame_rate must be a number from 1 to 1000")
    #expect(
      try message(["sensor", "binned", 0, "max_frame_rate"], 1e9)
        == "profile p.json: field sensor.binned[0].max_frame_rate must be a number from 1 to 1000")
    #expect(
      try message(["frame_interval_ms"], 1e300)
        == "profile p.json: field frame_interval_ms must be a number from 1 to 1000")
    #expect(
      try message(["warm_window_ms"], 1e300)
        == "profile p.json: field warm_window_ms must be a number from 0 to 86400000")
    // 100 000 × 100 000 pixels: 10 Gpx per frame, 45 GB of photo buffers.
    #expect(
      try message(["sensor", "width"], 100_000)
        == "profile p.json: field sensor.width must be a whole number from 160 to 8192")
    #expect(
      try message(["sensor", "binned", 0, "height"], 1e12)
        == "profile p.json: field sensor.binned[0].height must be a whole number from 120 to 8192")
    #expect(
      try message(["sensor", "pixel_budget"], 1e300)
        == "profile p.json: field sensor.pixel_budget must be a number from 1 to 1e12")
  }

  @Test("a sensor of 8192 × 8192 pixels (67 Mpx a frame) is refused: at most 8192 × 4320 in all")
  func sensorArea() throws {
    let json = try Fixtures.defaultJSON(
      setting: ["sensor"],
      to: [
        "width": 8192, "height": 8192, "max_frame_rate": 1, "pixel_budget": 1e9,
      ])
    #expect(throws: ProfileError.self) { try CostProfile.decode(json: json, source: "p.json") }
    let ok = try Fixtures.defaultJSON(
      setting: ["sensor"],
      to: [
        "width": 8192, "height": 4320, "max_frame_rate": 1, "pixel_budget": 1e9,
      ])
    #expect(try CostProfile.decode(json: ok, source: "p.json").sensor.height == 4320)
  }

  @Test(
    "a format its own pixel budget cannot stream (hardware cost above 1) is refused when loaded, not at every start"
  )
  func pixelBudget() throws {
    // 1280 × 720 × 30 fps = 27.6 Mpx/s.
    let error = try message(["sensor", "pixel_budget"], 20_000_000)
    #expect(error?.hasPrefix("profile p.json: field sensor.pixel_budget") == true, "\(error ?? "accepted")")
    #expect(error?.contains("1280×720 at 30 fps") == true, "\(error ?? "accepted")")
    #expect(try message(["sensor", "pixel_budget"], 27_648_000) == nil)
  }
}
