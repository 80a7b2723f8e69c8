/// The display path a benchmark runs on (`bench --display`), spelled the same on the command
/// line and in results (`settings.display`).
///
/// - `shm` — the shared-memory surface and the runner's compositor: no dependencies, a refresh
///   grid and exact ground truth (the default);
/// - `x11` — a private X server (Xvfb) that bench starts for the benchmark and stops after it;
/// - `x11:NAME` — an existing X server (`x11::0`, a desktop);
/// - `wayland` — a private headless Wayland compositor (sway) that bench starts and stops;
/// - `wayland+xwayland` — the private sway with Xwayland: X11 apps (`ximagesink`, SDL's X11
///   driver) present through it, and get its `DISPLAY`;
/// - `wayland-cage` — the same with cage, the kiosk compositor, instead of sway;
/// - `wayland:SOCKET` — a running compositor, read only: a socket name in `XDG_RUNTIME_DIR`
///   (`wayland:wayland-0`) or an absolute path.
public enum DisplayPath: Sendable, Hashable, CustomStringConvertible {
  /// `shm`.
  case sharedMemory
  /// `x11`: a private Xvfb.
  case privateX11
  /// `x11:NAME`: the X server `NAME` (`:0`).
  case x11(display: String)
  /// `wayland` (sway), `wayland+xwayland` (sway with Xwayland) or `wayland-cage`: a private
  /// headless compositor.
  case privateWayland(WaylandCompositorKind, xwayland: Bool = false)
  /// `wayland:SOCKET`: the running compositor at `SOCKET` (a name in `XDG_RUNTIME_DIR`, or an
  /// absolute path).
  case wayland(socket: String)

  /// Parses `shm`, `x11`, `x11:NAME`, `wayland`, `wayland+xwayland`, `wayland-cage` or
  /// `wayland:SOCKET`.
  /// - Throws: `LaunchContractError` for anything else, or `x11:`/`wayland:` without a name.
  public init(parsing text: String) throws(LaunchContractError) {
    switch text {
    case "shm": self = .sharedMemory
    case "x11": self = .privateX11
    case "wayland": self = .privateWayland(.sway)
    case "wayland+xwayland": self = .privateWayland(.sway, xwayland: true)
    case "wayland-cage": self = .privateWayland(.cage)
    default:
      if text.hasPrefix("wayland:") {
        self = .wayland(socket: try Self.waylandSocket(text))
        return
      }
      guard text.hasPrefix("x11:") else {
        throw LaunchContractError(
          "unknown display '\(text)' for --display (choose from shm, x11, x11:NAME, wayland, wayland+xwayland, wayland-cage or wayland:SOCKET)"
        )
      }
      let name = String(text.dropFirst(4))
      guard !name.isEmpty else {
        throw LaunchContractError("'\(text)' names no X display (use x11:NAME, e.g. x11::0)")
      }
      self = .x11(display: name)
    }
  }

  /// The socket named by `wayland:SOCKET`: a name without `/` (in `XDG_RUNTIME_DIR`) or an
  /// absolute path.
  /// - Throws: `LaunchContractError` for an empty or relative path with folders.
  static func waylandSocket(_ text: String) throws(LaunchContractError) -> String {
    let socket = String(text.dropFirst("wayland:".count))
    guard !socket.isEmpty else {
      throw LaunchContractError(
        "'\(text)' names no Wayland socket (use wayland:SOCKET, e.g. wayland:wayland-0)")
    }
    guard socket.hasPrefix("/") || !socket.contains("/") else {
      throw LaunchContractError(
        "'\(text)' is neither a socket name in XDG_RUNTIME_DIR nor an absolute path")
    }
    return socket
  }

  /// The display server this path runs on; what it offers is asked of it
  /// (`display.server.mapsWindows`).
  public var server: DisplayServerKind {
    switch self {
    case .sharedMemory: .sharedMemory
    case .privateX11, .x11: .x11
    case .privateWayland, .wayland: .wayland
    }
  }

  /// `shm`, `x11`, `x11:NAME`, `wayland`, `wayland+xwayland`, `wayland-cage` or `wayland:SOCKET`.
  public var description: String {
    switch self {
    case .sharedMemory: "shm"
    case .privateX11: "x11"
    case .x11(let display): "x11:" + display
    case .privateWayland(.sway, let xwayland): xwayland ? "wayland+xwayland" : "wayland"
    case .privateWayland(let compositor, _): "wayland-" + compositor.rawValue
    case .wayland(let socket): "wayland:" + socket
    }
  }
}
