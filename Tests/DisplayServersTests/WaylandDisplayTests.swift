import LaunchContract
import TestSupport
import Testing

/// The Wayland spellings of the display contract: `--display wayland[:SOCKET]` and
/// `FIRSTFRAME_DISPLAY=wayland:/PATH`, and what the Wayland kind offers.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct WaylandDisplayTests {
  @Test(
    "--display wayland is a private sway, wayland+xwayland one with Xwayland, wayland-cage a private cage; wayland:SOCKET a running one, by name or path"
  )
  func parsesPaths() throws {
    #expect(try DisplayPath(parsing: "wayland") == .privateWayland(.sway))
    #expect(try DisplayPath(parsing: "wayland-cage") == .privateWayland(.cage))
    #expect(try DisplayPath(parsing: "wayland+xwayland") == .privateWayland(.sway, xwayland: true))
    #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: "wayland-cage+xwayland") }
    #expect(try DisplayPath(parsing: "wayland:wayland-0") == .wayland(socket: "wayland-0"))
    #expect(
      try DisplayPath(parsing: "wayland:/run/user/1000/wayland-1")
        == .wayland(socket: "/run/user/1000/wayland-1"))
    for text in ["wayland", "wayland+xwayland", "wayland-cage", "wayland:wayland-0", "wayland:/tmp/s"] {
      #expect(try DisplayPath(parsing: text).description == text)
      #expect(try DisplayPath(parsing: text).server == .wayland)
    }
  }

  @Test("wayland: without a socket, or with a relative path, is refused")
  func refusesBadSockets() {
    #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: "wayland:") }
    #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: "wayland:run/wayland-0") }
    #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: "weston") }
    #expect(throws: LaunchContractError.self) { try DisplayPath(parsing: "wayland-weston") }
  }

  @Test("FIRSTFRAME_DISPLAY=wayland:/PATH names the compositor's socket by its absolute path")
  func parsesTargets() throws {
    let target = try DisplayTarget(parsing: "wayland:/tmp/firstframe-wayland-1/wayland-1")
    #expect(target == .wayland(socket: "/tmp/firstframe-wayland-1/wayland-1"))
    #expect(target.server == .wayland)
    #expect(target.description == "wayland:/tmp/firstframe-wayland-1/wayland-1")
    #expect(throws: LaunchContractError.self) { try DisplayTarget(parsing: "wayland:wayland-0") }
    #expect(throws: LaunchContractError.self) { try DisplayTarget(parsing: "wayland:") }
  }

  @Test("a Wayland app maps windows on a compositor apart from bench, read from its output")
  func capabilities() {
    #expect(DisplayServerKind.wayland.mapsWindows)
    #expect(DisplayServerKind.wayland.runsApart)
    #expect(!DisplayServerKind.wayland.readsScreenOrWindow)
    #expect(DisplayServerKind.wayland.description == "wayland")
  }
}
