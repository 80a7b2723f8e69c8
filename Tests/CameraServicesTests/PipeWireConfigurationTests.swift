import Testing

@testable import CameraServices

/// The private daemon's configuration: one camera node made directly, clients marked by the
/// access module (without it a client sees no node), the node suspended as soon as it is idle,
/// WirePlumber started with the daemon, nothing for audio or D-Bus.
struct PipeWireConfigurationTests {
  @Test("a V4L2 node: api.v4l2.source at the path, suspended when idle, WirePlumber started with the daemon")
  func deviceNode() {
    let text = PipeWireConfiguration.daemon(
      source: .device(path: "/dev/video1"), nodeName: "firstframe.camera", wireplumber: "/usr/bin/wireplumber"
    )
    #expect(text.contains("factory.name = api.v4l2.source"))
    #expect(text.contains("api.v4l2.path = \"/dev/video1\""))
    #expect(text.contains("node.name = \"firstframe.camera\""))
    #expect(text.contains("node.suspend-on-idle = true"))
    #expect(text.contains("libpipewire-module-access"))
    #expect(text.contains("{ path = \"/usr/bin/wireplumber\" args = \"\" }"))
    #expect(text.contains("support.dbus = false"))
    #expect(!text.contains("alsa"))
    #expect(!text.contains("factory.name = videotestsrc"))
  }

  @Test("the test pattern: SPA's videotestsrc through the adapter, no V4L2 path")
  func testPattern() {
    let text = PipeWireConfiguration.daemon(source: .testPattern, nodeName: "n", wireplumber: "/w")
    #expect(text.contains("factory.name = videotestsrc"))
    #expect(text.contains("factory = adapter"))
    #expect(!text.contains("api.v4l2.path"))
  }

  @Test("a path with quotes or backslashes stays inside its string; a comment gets no line break")
  func quoting() {
    let text = PipeWireConfiguration.daemon(
      source: .device(path: "/dev/v\"i\\d\neo"), nodeName: "n", wireplumber: "/w")
    #expect(text.contains("api.v4l2.path = \"/dev/v\\\"i\\\\d\neo\""))
    #expect(text.hasPrefix("# Written by bench (FirstFrame, --camera pipewire: /dev/v\"i\\d eo)"))
  }

  @Test("WirePlumber's script defines its components itself: the stock helper functions are not loaded")
  func sessionManagerScript() {
    let script = PipeWireConfiguration.sessionManagerScript
    #expect(script.contains("components = {}"))
    #expect(!script.contains("load_module("))
    #expect(script.contains("\"enable-flatpak-portal\"] = false"))
    for name in ["create-item.lua", "policy-node.lua", "suspend-node.lua", "si-audio-endpoint"] {
      #expect(script.contains(name), "\(name)")
    }
    #expect(PipeWireConfiguration.sessionManager.contains("{ name = firstframe.lua, type = config/lua }"))
  }
}
