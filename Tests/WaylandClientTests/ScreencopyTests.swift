import SystemCalls
import TestSupport
import Testing
import WaylandClient

@Suite(
  "wlr-screencopy on a real headless sway", .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: HeadlessSway.available, HeadlessSway.skipReason))
struct ScreencopyTests {
  @Test("copies of the output come in the output's size and layout, stamped on the clock the client reads")
  func copiesFrames() throws {
    let sway = try HeadlessSway(width: 640, height: 360, refresh: 60)
    defer { sway.stop() }
    let connection = try WaylandConnection(socket: sway.socket)
    defer { connection.close() }
    let registry = try WaylandRegistry(connection: connection)
    let copy = try WaylandScreencopy(registry: registry, withDamage: false)
    defer { copy.close() }
    #expect(copy.version >= 2)
    var presented: [UInt64] = []
    let deadline = MonotonicClock.now() + 20_000_000_000
    while presented.count < 4, MonotonicClock.now() < deadline {
      guard let frame = try copy.nextFrame(waitingMilliseconds: 200) else { continue }
      #expect(frame.width == 640 && frame.height == 360)
      #expect(frame.stride >= 640 * 4 && frame.pixels.count == frame.stride * 360)
      // The compositor presented the frame before the client read that it had.
      #expect(frame.presentedNanoseconds <= frame.receivedNanoseconds)
      presented.append(frame.presentedNanoseconds)
    }
    #expect(presented.count == 4)
    #expect(presented == presented.sorted())
    #expect(copy.counts.failures == 0)
  }

  @Test("a copy with damage of a fresh output arrives, its damage inside the output")
  func copiesWithDamage() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let connection = try WaylandConnection(socket: sway.socket)
    defer { connection.close() }
    let copy = try WaylandScreencopy(registry: try WaylandRegistry(connection: connection), withDamage: true)
    defer { copy.close() }
    var frame: WaylandScreencopy.Frame?
    let deadline = MonotonicClock.now() + 20_000_000_000
    while frame == nil, MonotonicClock.now() < deadline {
      frame = try copy.nextFrame(waitingMilliseconds: 200)
    }
    let copied = try #require(frame)
    for rectangle in copied.damage {
      #expect(rectangle.x >= 0 && rectangle.y >= 0)
      #expect(rectangle.x + rectangle.width <= 640 && rectangle.y + rectangle.height <= 360)
    }
  }

  @Test("screencopy at a version the compositor lacks is refused in one line that names it")
  func missingProtocolIsNamed() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let connection = try WaylandConnection(socket: sway.socket)
    defer { connection.close() }
    let registry = try WaylandRegistry(connection: connection)
    let error = try #require(throws: WaylandError.self) {
      try registry.bind("zwlr_screencopy_manager_v1", version: 3, minimumVersion: 9)
    }
    #expect(error.kind == .missingGlobal)
    #expect(error.message.contains("zwlr_screencopy_manager_v1"))
  }
}
