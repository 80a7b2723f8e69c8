import Foundation
import SystemCalls
import Testing
import TestSupport
@testable import SyntheticCamera

@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct PowerStateTests {
  @Test("the first open is cold, an open soon after a close (another instance, same directory) is warm")
  func coldThenWarm() throws {
    let directory = temporaryFolder("state")
    let first = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try first.open()
    #expect(first.lastPowerUp?.kind == .cold)
    first.close()
    #expect(first.lastStateFileError == nil)

    let second = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try second.open()
    #expect(second.lastPowerUp?.kind == .warm)
    second.close()
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(leftovers == ["synthetic-camera.state"])
  }

  @Test("markCold makes the next open cold, and is fine when there is nothing to forget")
  func markCold() throws {
    let directory = temporaryFolder("state")
    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try camera.open()
    camera.close()
    try SyntheticCamera.markCold(stateDirectory: directory)
    try SyntheticCamera.markCold(stateDirectory: directory)
    try camera.open()
    #expect(camera.lastPowerUp?.kind == .cold)
    camera.close()
  }

  @Test("a close longer ago than the warm window, in another boot, or an unreadable file means cold")
  func coldCases() throws {
    let directory = temporaryFolder("state")
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

  @Test(
    "an open that is never closed (a killed holder) leaves the device held; its release, recorded by whoever reaped the holder, makes the next open warm"
  )
  func releaseOfAKilledHolder() throws {
    let directory = temporaryFolder("state")
    let holder = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try holder.open()
    #expect(holder.lastPowerUp?.kind == .cold)
    #expect(holder.lastStateFileError == nil)
    // The holder is killed: no close(). Nothing recorded a release, so an open now is cold.
    let file = PowerStateFile(directory: directory)
    #expect(file.read()?.heldSinceNs != nil)
    #expect(file.powerUp(now: MonotonicClock.now(), warmWindowMs: 10_000) == .cold)
    let reapedAt = MonotonicClock.now()
    #expect(try SyntheticCamera.recordRelease(stateDirectory: directory, atNs: reapedAt))
    #expect(file.read() == .init(bootID: PowerStateFile.bootID, lastCloseNs: reapedAt, heldSinceNs: nil))
    // Released once: a second report changes nothing.
    #expect(try !SyntheticCamera.recordRelease(stateDirectory: directory, atNs: reapedAt + 1))

    let next = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try next.open()
    #expect(next.lastPowerUp?.kind == .warm)
    next.close()
    // Closed by its holder: the release is its own, and a reaper's report changes nothing.
    let closed = try #require(file.read())
    #expect(closed.heldSinceNs == nil)
    #expect(try !SyntheticCamera.recordRelease(stateDirectory: directory, atNs: MonotonicClock.now()))
    #expect(file.read() == closed)
    // No state at all (a cold device, a V4L2 camera): nothing to release.
    try SyntheticCamera.markCold(stateDirectory: directory)
    #expect(try !SyntheticCamera.recordRelease(stateDirectory: directory, atNs: MonotonicClock.now()))
  }

  @Test("the state file keeps the last close while the device is held, and reads files without either line")
  func heldRecordFormat() throws {
    let directory = temporaryFolder("state")
    let file = PowerStateFile(directory: directory)
    let now = MonotonicClock.now()
    try file.write(closeNs: now - 1_000_000_000)
    try file.markHeld(openNs: now)
    #expect(
      file.read() == .init(bootID: PowerStateFile.bootID, lastCloseNs: now - 1_000_000_000, heldSinceNs: now))
    // Held since an open in the warm window of an earlier close: the close still decides.
    #expect(file.powerUp(now: now, warmWindowMs: 10_000) == .warm)
    try SyntheticCamera.markCold(stateDirectory: directory)
    try file.markHeld(openNs: now)
    #expect(file.read() == .init(bootID: PowerStateFile.bootID, lastCloseNs: nil, heldSinceNs: now))
    #expect(file.powerUp(now: now, warmWindowMs: 10_000) == .cold)
    // A record from another boot is not carried into this boot's.
    try file.write(closeNs: now - 1_000_000_000, bootID: "another-boot")
    try file.markHeld(openNs: now)
    #expect(file.read() == .init(bootID: PowerStateFile.bootID, lastCloseNs: nil, heldSinceNs: now))
  }

  /// Waits are lower bounds, which load cannot break; how much sooner a warm open is on a real
  /// machine is a benchmark's question (`bench`: process_launch and device phases, cold vs warm).
  @Test("a cold open waits at least the cold cost and a warm one at least the warm cost")
  func coldCostsMore() throws {
    var profile = try Fixtures.fast
    profile.costs.powerUpCold = .init(.hardware, ms: 200)
    profile.costs.powerUpWarm = .init(.hardware, ms: 10)
    let directory = temporaryFolder("state")
    let camera = SyntheticCamera(profile: profile, stateDirectory: directory)
    let t0 = MonotonicClock.now()
    try camera.open()
    let cold = MonotonicClock.now() - t0
    #expect(camera.lastPowerUp?.kind == .cold)
    camera.close()
    let t1 = MonotonicClock.now()
    try camera.open()
    let warm = MonotonicClock.now() - t1
    #expect(camera.lastPowerUp?.kind == .warm)
    camera.close()
    #expect(cold >= 200_000_000)
    #expect(warm >= 10_000_000)
  }

  @Test(
    "the default state directory is $FIRSTFRAME_SYNTHETIC_STATE, $XDG_RUNTIME_DIR/firstframe or /tmp/firstframe-<uid>"
  )
  func defaultDirectory() {
    let directory = SyntheticCamera.defaultStateDirectory
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["FIRSTFRAME_SYNTHETIC_STATE"], !value.isEmpty {
      #expect(directory == value)
    } else if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      #expect(directory == runtime + "/firstframe")
    } else {
      #expect(directory == "/tmp/firstframe-\(getuid())")
    }
  }

  @Test(
    "a state folder another user made first is not trusted: no close is recorded in it and a state file there does not make the camera warm",
    .enabled(if: ForeignFolder.canPlant, Prerequisites.cannotPlant))
  func foreignFolder() throws {
    let directory = temporaryFolder("state") + "/planted"
    try #require(ForeignFolder.plant(at: directory))
    defer { ForeignFolder.remove(directory) }
    let now = MonotonicClock.now()
    // What the other user left: a state file saying the camera closed a moment ago.
    let text =
      "\(PowerStateFile.header)\nboot_id \(PowerStateFile.bootID)\nlast_close_ns \(now - 1_000_000)\n"
    try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/synthetic-camera.state"))

    let file = PowerStateFile(directory: directory)
    #expect(file.powerUp(now: now, warmWindowMs: 10_000) == .cold)
    #expect(throws: SyntheticCameraError.self) { try file.write(closeNs: now) }
    #expect(ForeignFolder.stillPlanted(at: directory))

    let camera = SyntheticCamera(profile: try Fixtures.fast, stateDirectory: directory)
    try camera.open()
    #expect(camera.lastPowerUp?.kind == .cold)
    camera.close()
    #expect(camera.lastStateFileError?.message.contains("owned by user 65534") == true)
  }

  @Test("a state folder reached through a symbolic link is not trusted")
  func symlinkedFolder() throws {
    let base = temporaryFolder("state")
    try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
    #expect(symlink(base + "/real", base + "/link") == 0)
    let file = PowerStateFile(directory: base + "/link")
    #expect(throws: SyntheticCameraError.self) { try file.write(closeNs: MonotonicClock.now()) }
    #expect((try FileManager.default.contentsOfDirectory(atPath: base + "/real")).isEmpty)
  }

  @Test(
    "the default state folder is $XDG_RUNTIME_DIR/firstframe, else /tmp/firstframe-<uid>; the runner's folder comes first"
  )
  func defaultFolderChoice() {
    #expect(
      PowerStateFile.defaultDirectory(syntheticState: "/run/bench/x", runtimeDirectory: "/run/user/7")
        == "/run/bench/x")
    #expect(
      PowerStateFile.defaultDirectory(syntheticState: nil, runtimeDirectory: "/run/user/7")
        == "/run/user/7/firstframe")
    #expect(
      PowerStateFile.defaultDirectory(syntheticState: nil, runtimeDirectory: nil)
        == "/tmp/firstframe-\(getuid())")
    // A relative XDG_RUNTIME_DIR is invalid by the specification: ignored.
    #expect(
      PowerStateFile.defaultDirectory(syntheticState: nil, runtimeDirectory: "run")
        == "/tmp/firstframe-\(getuid())")
  }
}
