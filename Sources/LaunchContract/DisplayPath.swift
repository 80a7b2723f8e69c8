/// The display path a benchmark runs on (`bench --display`), spelled the same on the command
/// line and in results (`settings.display`).
///
/// - `shm` — the shared-memory surface and the runner's compositor: no dependencies, a refresh
///   grid and exact ground truth (the default);
/// - `x11` — a private X server (Xvfb) that bench starts for the benchmark and stops after it;
/// - `x11:NAME` — an existing X server (`x11::0`, a desktop).
public enum DisplayPath: Sendable, Hashable, CustomStringConvertible {
  /// `shm`.
  case sharedMemory
  /// `x11`: a private Xvfb.
  case privateX11
  /// `x11:NAME`: the X server `NAME` (`:0`).
  case x11(display: String)

  /// Parses `shm`, `x11` or `x11:NAME`.
  /// - Throws: `LaunchContractError` for anything else (`wayland`), or `x11:` without a name.
  public init(parsing text: String) throws(LaunchContractError) {
    switch text {
    case "shm": self = .sharedMemory
    case "x11": self = .privateX11
    default:
      guard text.hasPrefix("x11:") else {
        throw LaunchContractError(
          "unknown display '\(text)' for --display (choose from shm, x11 or x11:NAME, e.g. x11::0)")
      }
      let name = String(text.dropFirst(4))
      guard !name.isEmpty else {
        throw LaunchContractError("'\(text)' names no X display (use x11:NAME, e.g. x11::0)")
      }
      self = .x11(display: name)
    }
  }

  /// The display server this path runs on; what it offers is asked of it
  /// (`display.server.mapsWindows`).
  public var server: DisplayServerKind {
    switch self {
    case .sharedMemory: .sharedMemory
    case .privateX11, .x11: .x11
    }
  }

  /// `shm`, `x11` or `x11:NAME`.
  public var description: String {
    switch self {
    case .sharedMemory: "shm"
    case .privateX11: "x11"
    case .x11(let display): "x11:" + display
    }
  }
}
