/// The configuration files of bench's private PipeWire daemon (`--camera pipewire:PATH`): a
/// video-only `pipewire.conf` that makes one camera node for the V4L2 device directly
/// (`api.v4l2.source` through the SPA node factory: no udev, no device monitor), starts
/// WirePlumber (`context.exec`, in the daemon's process group), and loads nothing for audio,
/// D-Bus or real-time scheduling; and WirePlumber's own configuration, which links clients to
/// that node and suspends it when it is idle, and nothing else.
package enum PipeWireConfiguration {
  /// What the camera node streams.
  package enum Source: Sendable, Hashable {
    /// A V4L2 capture node (`api.v4l2.source`).
    case device(path: String)
    /// SPA's test pattern (`videotestsrc`): the daemon's life cycle tested where there is no V4L2.
    case testPattern
  }

  /// `pipewire.conf` for the daemon serving `source` as the node `nodeName`; `wireplumber` is the
  /// session manager's path. The node suspends as soon as it is idle (`node.suspend-on-idle`:
  /// WirePlumber's default waits 5 s with the device open), so the run after a run finds the
  /// device closed within milliseconds.
  package static func daemon(source: Source, nodeName: String, wireplumber: String) -> String {
    let what: String
    let node: String
    switch source {
    case .device(let path):
      what = quotedComment(path)
      node = """
        { factory = spa-node-factory
                args = {
                    factory.name = api.v4l2.source
                    api.v4l2.path = "\(quoted(path))"
        """
    case .testPattern:
      what = "a test pattern"
      node = """
        { factory = adapter
                args = {
                    factory.name = videotestsrc
        """
    }
    return """
      # Written by bench (FirstFrame, --camera pipewire: \(what)): video only, one camera node made
      # directly, WirePlumber started with the daemon. module-access marks clients, so that they
      # are given the objects they may see: without it a client sees no node.
      context.properties = {
          core.daemon = true
          core.name = pipewire-0
          support.dbus = false
          mem.allow-mlock = false
          log.level = 2
      }
      context.spa-libs = {
          api.v4l2.* = v4l2/libspa-v4l2
          videotestsrc = videotestsrc/libspa-videotestsrc
          support.* = support/libspa-support
      }
      context.modules = [
          { name = libpipewire-module-protocol-native }
          { name = libpipewire-module-access }
          { name = libpipewire-module-metadata }
          { name = libpipewire-module-spa-node-factory }
          { name = libpipewire-module-client-node }
          { name = libpipewire-module-client-device }
          { name = libpipewire-module-adapter }
          { name = libpipewire-module-link-factory }
          { name = libpipewire-module-session-manager }
      ]
      context.objects = [
          { factory = spa-node-factory
              args = {
                  factory.name = support.node.driver
                  node.name = Dummy-Driver
                  node.group = pipewire.dummy
                  priority.driver = 20000
              }
          }
          \(node)
                  node.name = "\(nodeName)"
                  node.description = "FirstFrame camera"
                  media.class = Video/Source
                  node.pause-on-idle = false
                  node.suspend-on-idle = true
                  priority.session = 1000
              }
          }
      ]
      context.exec = [
          { path = "\(quoted(wireplumber))" args = "" }
      ]

      """
  }

  /// WirePlumber's `wireplumber.conf`: the Lua scripting module and one script that links
  /// streams to the camera node and suspends idle nodes; no ALSA, Bluetooth or V4L2 monitor.
  package static let sessionManager = """
    # Written by bench (FirstFrame, --camera pipewire:…): linking and suspending only.
    context.properties = {
        log.level = 2
        wireplumber.script-engine = lua-scripting
    }
    context.spa-libs = {
        support.* = support/libspa-support
    }
    context.modules = [
        { name = libpipewire-module-protocol-native }
        { name = libpipewire-module-client-node }
        { name = libpipewire-module-client-device }
        { name = libpipewire-module-adapter }
        { name = libpipewire-module-metadata }
        { name = libpipewire-module-session-manager }
    ]
    wireplumber.components = [
        { name = libwireplumber-module-lua-scripting, type = module }
        { name = firstframe.lua, type = config/lua }
    ]

    """

  /// `firstframe.lua`: the components of WirePlumber's stock video policy, defined here (the
  /// stock configuration's helper functions are not loaded): linking a stream to its target
  /// (`create-item.lua`, `policy-node.lua` and the session items they need), the default access
  /// (no Flatpak portal: it would look for D-Bus, and WirePlumber exits without it) and the
  /// suspend of idle nodes.
  package static let sessionManagerScript = """
    -- Written by bench (FirstFrame, --camera pipewire:…).
    components = {}
    local function module(name, args)
      components[name] = { "libwireplumber-module-" .. name, type = "module", args = args }
    end
    local function script(name, args)
      components[name] = { name, type = "script/lua", args = args }
    end
    local policy = { ["move"] = false, ["follow"] = false }
    module("metadata")
    module("si-node")
    module("si-audio-adapter")
    module("si-standard-link")
    module("si-audio-endpoint")
    module("default-nodes-api")
    script("access/access-default.lua", { ["enable-flatpak-portal"] = false })
    script("create-item.lua", policy)
    script("policy-node.lua", policy)
    script("suspend-node.lua")

    """

  /// `text` safe inside a double-quoted SPA JSON string.
  static func quoted(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
  }

  /// `text` safe on a comment line (no line breaks).
  static func quotedComment(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }
}
