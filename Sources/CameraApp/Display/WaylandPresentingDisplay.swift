#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import LaunchContract
import WaylandClient

/// A Wayland compositor as camera-app presents to it: a 640×360 xdg-shell toplevel
/// (`WaylandPresenter`, title and app id `camera-app`) on the compositor whose socket
/// `wayland:/PATH` names, or on `WAYLAND_DISPLAY`'s (in `XDG_RUNTIME_DIR`) when bench named no
/// display. If the compositor goes away later, the app ends with exit status 1 and says so.
///
/// Run by hand, `WAYLAND_DISPLAY` is tried before `DISPLAY`: on a Wayland desktop both are set
/// (`DISPLAY` names Xwayland), and the compositor is the display the desktop really runs.
enum WaylandPresentingDisplay: PresentingDisplay {
  static var server: DisplayServerKind { .wayland }

  static func open(_ target: DisplayTarget) throws -> any DisplaySink {
    guard case .wayland(let socket) = target else {
      throw WaylandError(.cannotConnect, "\(target) is not a Wayland compositor")
    }
    return try openWindow(socket: socket, environment: [:])
  }

  static func openFromHostEnvironment() throws -> (any DisplaySink)? {
    guard let name = environmentValue("WAYLAND_DISPLAY") else { return nil }
    var environment: [String: String] = [:]
    environment["XDG_RUNTIME_DIR"] = environmentValue("XDG_RUNTIME_DIR")
    return try openWindow(socket: name, environment: environment)
  }

  /// The preview window on the compositor at `socket` (absolute, or a name in `environment`'s
  /// `XDG_RUNTIME_DIR`).
  static func openWindow(socket: String, environment: [String: String]) throws(WaylandError)
    -> WaylandPresenter
  {
    try WaylandPresenter(
      socket: socket, environment: environment, width: 640, height: 360, title: "camera-app",
      appID: "camera-app",
      onConnectionLost: { @Sendable error in CameraApp.terminate(.camera(error.message)) })
  }

  /// The environment variable `name`, nil when unset or empty.
  private static func environmentValue(_ name: String) -> String? {
    guard let value = getenv(name), value.pointee != 0 else { return nil }
    return String(cString: value)
  }
}
