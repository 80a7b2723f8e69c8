import JSONDecoding
import SystemCalls

/// A rectangle in the compositor's layout, in pixels.
public struct SwayRect: Sendable, Hashable {
  /// The left edge.
  public var x: Int
  /// The top edge.
  public var y: Int
  /// The width.
  public var width: Int
  /// The height.
  public var height: Int

  /// A rectangle at (`x`, `y`) of `width`×`height`.
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The rectangle in a node's `rect` object; nil when it is missing or not numbers.
  init?(_ value: JSONValue?) {
    guard case .object(let o) = value, let x = o["x"]?.integer, let y = o["y"]?.integer,
      let w = o["width"]?.integer, let h = o["height"]?.integer
    else { return nil }
    self.init(x: x, y: y, width: w, height: h)
  }
}

/// One output as `GET_OUTPUTS` reports it.
public struct SwayOutput: Sendable, Hashable {
  /// Its name (`HEADLESS-1`).
  public var name: String
  /// Whether it is on.
  public var active: Bool
  /// The current mode's width, pixels.
  public var width: Int
  /// The current mode's height, pixels.
  public var height: Int
  /// The current mode's refresh, mHz (60000 at 60 Hz).
  public var refreshMillihertz: Int
  /// Where it sits in the layout.
  public var rect: SwayRect?

  /// The refresh, Hz.
  public var refreshHz: Double { Double(refreshMillihertz) / 1000 }

  /// The outputs in a `GET_OUTPUTS` reply (those without a current mode left out).
  static func list(_ reply: JSONValue) -> [SwayOutput] {
    guard case .array(let items) = reply else { return [] }
    return items.compactMap { item -> SwayOutput? in
      guard case .object(let o) = item, case .string(let name) = o["name"],
        case .object(let mode) = o["current_mode"], let w = mode["width"]?.integer,
        let h = mode["height"]?.integer, let r = mode["refresh"]?.integer
      else { return nil }
      let active: Bool
      if case .bool(let a) = o["active"] { active = a } else { active = false }
      return SwayOutput(
        name: name, active: active, width: w, height: h, refreshMillihertz: r, rect: SwayRect(o["rect"]))
    }
  }
}

/// A window (a view: a container with a client) as sway's tree and window events report it.
public struct SwayWindow: Sendable, Hashable {
  /// The container's id (`con_id`), stable while the window lives.
  public var id: Int
  /// The pid of the client that owns the window (from the Wayland connection's credentials:
  /// the process that connected, in sway's pid namespace).
  public var pid: Int32
  /// Where the container sits in the layout (zero until sway laid it out).
  public var rect: SwayRect?
  /// The container's content area, relative to `rect` (sway's `window_rect`: `rect` less borders
  /// and title bar).
  public var windowRect: SwayRect?
  /// The client's own geometry (sway's `geometry`: the size of what it drew, whatever size it
  /// was asked for; zero before its first buffer).
  public var geometry: SwayRect?
  /// The rectangle of the output the window is on, in the layout; from `GET_TREE` only (nil in
  /// a window event).
  public var output: SwayRect?

  /// Where the client's pixels are in the layout: sway (1.7, `apply_container_state`) shows a
  /// client smaller than its content area centred in it, and a larger one clipped to it, from
  /// the area's top left corner. Nil while the container is not laid out or the client drew
  /// nothing.
  ///
  /// An Xwayland window's pixels are taken as its whole content area: sway configures an X11
  /// window to the area's size and X11 clients take the size they are given, but sway 1.7 can
  /// keep reporting the window's first size as its `geometry` after the client took the new one
  /// (seen: 320×240 for seconds while ximagesink drew 640×360 at the area's corner, so the
  /// centred 320×240 showed a still middle of a live picture). A client that kept a smaller size
  /// is inside the area, centred, with sway's background around it.
  public var surface: SwayRect? {
    guard let rect, let content = windowRect, let geometry, geometry.width > 0, geometry.height > 0,
      content.width > 0, content.height > 0
    else { return nil }
    let left = rect.x + content.x
    let top = rect.y + content.y
    if isXwayland { return SwayRect(x: left, y: top, width: content.width, height: content.height) }
    return SwayRect(
      x: left + max(0, (content.width - geometry.width) / 2),
      y: top + max(0, (content.height - geometry.height) / 2),
      width: min(geometry.width, content.width), height: min(geometry.height, content.height))
  }

  /// `surface` relative to the output's top left corner (the layout's when the output is not
  /// known): the rectangle of a screencopy of that output that shows the client.
  public var surfaceOnOutput: SwayRect? {
    guard var s = surface else { return nil }
    s.x -= output?.x ?? 0
    s.y -= output?.y ?? 0
    return s
  }
  /// Whether the client is an X11 window through Xwayland (sway's `shell`: `xwayland`, against
  /// `xdg_shell` for a native Wayland client).
  public var isXwayland: Bool
  /// The xdg-shell app id (`camera-app`), when the client set one.
  public var appID: String?
  /// The title, when the client set one.
  public var title: String?
  /// Whether the window has the focus.
  public var focused: Bool

  /// The window in a container node, or nil when the node holds no client (a workspace, a split).
  init?(node: JSONValue) {
    guard case .object(let o) = node, let id = o["id"]?.integer, let pid = o["pid"]?.integer,
      let pid32 = Int32(exactly: pid), pid32 > 0
    else { return nil }
    self.id = id
    self.pid = pid32
    self.rect = SwayRect(o["rect"])
    self.windowRect = SwayRect(o["window_rect"])
    self.geometry = SwayRect(o["geometry"])
    self.output = nil
    if case .string("xwayland") = o["shell"] { isXwayland = true } else { isXwayland = false }
    if case .string(let a) = o["app_id"] { appID = a } else { appID = nil }
    if case .string(let t) = o["name"] { title = t } else { title = nil }
    if case .bool(let f) = o["focused"] { focused = f } else { focused = false }
  }

  /// Every window in a `GET_TREE` reply, depth first (tiled, then floating nodes), each with
  /// the rectangle of the output it is on.
  static func all(inTree tree: JSONValue) -> [SwayWindow] {
    var found: [SwayWindow] = []
    var stack: [(node: JSONValue, output: SwayRect?)] = [(tree, nil)]
    var visited = 0
    // A tree is bounded by sway, but a loop over the app's windows is bounded here too.
    while let (node, parentOutput) = stack.popLast(), visited < 100_000 {
      visited += 1
      guard case .object(let o) = node else { continue }
      var output = parentOutput
      if case .string("output") = o["type"] { output = SwayRect(o["rect"]) }
      if var window = SwayWindow(node: node) {
        window.output = output
        found.append(window)
      }
      for key in ["floating_nodes", "nodes"] {
        if case .array(let children) = o[key] { stack += children.reversed().map { ($0, output) } }
      }
    }
    return found
  }
}

extension SwayIPC {
  /// The outputs (`GET_OUTPUTS`), by `deadline`.
  /// - Throws: ``SwayIPCError``.
  public func outputs(until deadline: UInt64) throws(SwayIPCError) -> [SwayOutput] {
    SwayOutput.list(try request(.getOutputs, until: deadline))
  }

  /// The windows with a client (`GET_TREE`), by `deadline`.
  /// - Throws: ``SwayIPCError``.
  public func windows(until deadline: UInt64) throws(SwayIPCError) -> [SwayWindow] {
    SwayWindow.all(inTree: try request(.getTree, until: deadline))
  }

  /// The compositor's version text (`GET_VERSION`'s `human_readable`: `1.7`), by `deadline`.
  /// - Throws: ``SwayIPCError``.
  public func version(until deadline: UInt64) throws(SwayIPCError) -> String {
    guard case .object(let o) = try request(.getVersion, until: deadline),
      case .string(let v) = o["human_readable"]
    else { throw SwayIPCError(.protocolError, "sway's GET_VERSION reply has no version") }
    return v
  }
}

extension JSONValue {
  /// The value as an integer, when it is a number without a fraction that fits.
  var integer: Int? {
    guard case .number(let text) = self else { return nil }
    return Int(text)
  }
}
