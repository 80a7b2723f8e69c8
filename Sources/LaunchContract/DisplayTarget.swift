/// Where the app presents its preview: the value of `FIRSTFRAME_DISPLAY`, parsed in one place.
///
/// - `fd:N` — a display surface the runner created and left open in the app as descriptor N;
/// - `x11:NAME` — an X server (`x11::0` is the server `:0`);
/// - `wayland:/PATH` — a Wayland compositor, by the absolute path of its socket;
/// - any other text — the name of a POSIX shared-memory display surface (`/firstframe-…`).
public enum DisplayTarget: Sendable, Hashable, CustomStringConvertible {
  /// A display surface inherited as descriptor N (`fd:N`).
  case surfaceDescriptor(Int32)
  /// A display surface by its shared-memory name.
  case sharedMemory(name: String)
  /// An X server, by its display name (`:0`, `:99`), written `x11:NAME`.
  case x11(display: String)
  /// A Wayland compositor, by the absolute path of its socket, written `wayland:/PATH`.
  case wayland(socket: String)

  /// Parses `fd:N`, `x11:NAME`, `wayland:/PATH` or a shared-memory name.
  /// - Throws: `LaunchContractError` for an empty text, `fd:` without a descriptor number,
  ///   `x11:` without a display name or `wayland:` without an absolute socket path.
  public init(parsing text: String) throws(LaunchContractError) {
    if text.hasPrefix("wayland:") {
      let socket = String(text.dropFirst("wayland:".count))
      guard socket.hasPrefix("/") else {
        throw LaunchContractError(
          "'\(text)' names no Wayland socket by its absolute path (use wayland:/PATH/TO/SOCKET)")
      }
      self = .wayland(socket: socket)
    } else if text.hasPrefix("x11:") {
      let name = String(text.dropFirst(4))
      guard !name.isEmpty else {
        throw LaunchContractError("'\(text)' names no X display (use x11:NAME, e.g. x11::0)")
      }
      self = .x11(display: name)
    } else if text.hasPrefix("fd:") {
      guard case .descriptor(let n) = try Endpoint(parsing: text) else {
        throw LaunchContractError("'\(text)' is not a file descriptor")
      }
      self = .surfaceDescriptor(n)
    } else {
      guard !text.isEmpty else { throw LaunchContractError("a display cannot be empty") }
      self = .sharedMemory(name: text)
    }
  }

  /// The display server the app presents through.
  public var server: DisplayServerKind {
    switch self {
    case .surfaceDescriptor, .sharedMemory: .sharedMemory
    case .x11: .x11
    case .wayland: .wayland
    }
  }

  /// The display as `FIRSTFRAME_DISPLAY` spells it.
  public var description: String {
    switch self {
    case .surfaceDescriptor(let n): "fd:\(n)"
    case .sharedMemory(let name): name
    case .x11(let display): "x11:" + display
    case .wayland(let socket): "wayland:" + socket
    }
  }
}
