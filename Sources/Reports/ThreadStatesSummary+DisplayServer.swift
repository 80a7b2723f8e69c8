import LaunchContract
import ResultsSchema

extension ThreadStatesSummary {
  /// The display server a benchmark's `display_server` figures are of, named from its
  /// `settings.display` (issue 36 item 5): `Xvfb` for `x11` (the private server bench starts),
  /// `X server NAME` for `x11:NAME` (a desktop's Xorg, an Xvfb, Xwayland: the setting does not
  /// say which), `sway` for `wayland` and `wayland+xwayland` (sway's own threads, not
  /// Xwayland's), `cage` for `wayland-cage`, and for `wayland:SOCKET` the
  /// compositor `settings.displayServer` names (`sway 1.7`'s program), else `Wayland
  /// compositor`. Nil for results without the setting (older than the X11 path), on shared
  /// memory, and for a setting this bench does not know.
  public static func displayServerName(_ settings: BenchResults.BenchSettings) -> String? {
    guard let text = settings.display, let path = try? DisplayPath(parsing: text) else { return nil }
    switch path {
    case .sharedMemory: return nil
    case .privateX11: return "Xvfb"
    case .x11(let display): return "X server \(display)"
    case .privateWayland(let kind, _): return kind.program
    case .wayland:
      let vendor = settings.displayServer?.vendor.split(separator: " ").first.map(String.init)
      return vendor.flatMap { WaylandCompositorKind(rawValue: $0)?.program } ?? "Wayland compositor"
    }
  }
}
