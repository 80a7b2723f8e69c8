import Foundation
import SystemCalls
import Testing
@testable import SyntheticCamera

@Suite(.timeLimit(.minutes(2))) struct PowerStateTests {
  @Test("the first open is cold, an open soon after a close (another instance, same directory) is warm")
  func coldThenWarm() throws {
    let directory = Fixtures.stateDirectory()
    let first = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try first.open()
    #expect(first.lastPowerUp == .cold)
    first.close()
    #expect(first.lastStateFileError == nil)

    let second = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try second.open()
    #expect(second.lastPowerUp == .warm)
    second.close()
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(leftovers == ["synthetic-camera.state"])
  }

  @Test("markCold makes the next open cold, and is fine when there is nothing to forget")
  func markCold() throws {
    let directory = Fixtures.stateDirectory()
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try camera.open()
    camera.close()
    try SyntheticCamera.markCold(stateDirectory: directory)
    try SyntheticCamera.markCold(stateDirectory: directory)
    try camera.open()
    #expect(camera.lastPowerUp == .cold)
    camera.close()
  }

  @Test("a close longer ago than the warm window, in another boot, or an unreadable file means cold")
  func coldCases() throws {
    let directory = Fixtures.stateDirectory()
    let file = PowerStateFile(directory: directory)
    let now = MonotonicClock.now()
    let window = 10_000.0

    try file.write(closeNs: now - 1_000_000_000)
    #expect(file.powerUp(now: now, warmWindowMs: window) == .warm)

    try file.write(closeNs: now - 11_000_000_000)
    #expect(file.powerUp(now: now, warmWindowMs: window) == .cold)

    try file.write(closeNs: now - 1_000_000_000, bootID: "another-boot")
    #expect(file.powerUp(now: now, warmWindowMs: window) == .cold)

    try file.write(closeNs: now + 5_000_000_000)  // from the future: not this boot's clock
    #expect(file.powerUp(now: now, warmWindowMs: window) == .cold)

    try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: file.path))
    #expect(file.powerUp(now: now, warmWindowMs: window) == .cold)
  }

  /// Waits are lower bounds, which load cannot break; how much sooner a warm open is on a real
  /// machine is a benchmark's question (`bench`: process_launch and device phases, cold vs warm).
  @Test("a cold open waits at least the cold cost and a warm one at least the warm cost")
  func coldCostsMore() throws {
    var profile = try Fixtures.fast
    profile.costs.powerUpCold = .init(.hardware, ms: 200)
    profile.costs.powerUpWarm = .init(.hardware, ms: 10)
    let directory = Fixtures.stateDirectory()
    let camera = SyntheticCamera(profile: profile, stateDirectory: directory)
    let t0 = MonotonicClock.now()
    try camera.open()
    let cold = MonotonicClock.now() - t0
    #expect(camera.lastPowerUp == .cold)
    camera.close()
    let t1 = MonotonicClock.now()
    try camera.open()
    let warm = MonotonicClock.now() - t1
    #expect(camera.lastPowerUp == .warm)
    camera.close()
    #expect(cold >= 200_000_000)
    #expect(warm >= 10_000_000)
  }

  @Test("the default state directory is $FIRSTFRAME_SYNTHETIC_STATE or /tmp/firstframe-<uid>")
  func defaultDirectory() {
    let directory = SyntheticCamera.defaultStateDirectory
    if let value = ProcessInfo.processInfo.environment["FIRSTFRAME_SYNTHETIC_STATE"], !value.isEmpty {
      #expect(directory == value)
    } else {
      #expect(directory == "/tmp/firstframe-\(getuid())")
    }
  }
}
