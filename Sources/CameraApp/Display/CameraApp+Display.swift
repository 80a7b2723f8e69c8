import CaptureKit
import LaunchContract

extension CameraApp {
  /// The display servers camera-app presents to, one implementation each; a new server is one
  /// more entry. Without `FIRSTFRAME_DISPLAY` the first whose host environment names a server
  /// opens the preview, so the shared-memory surface, which always opens a private one, is last,
  /// and Wayland (`WAYLAND_DISPLAY`) comes before X11 (`DISPLAY`, which on a Wayland desktop
  /// names its Xwayland).
  static var displayServers: [any PresentingDisplay.Type] {
    [WaylandPresentingDisplay.self, X11PresentingDisplay.self, SharedMemoryPresentingDisplay.self]
  }

  /// The display: `FIRSTFRAME_DISPLAY`'s surface or server; without it, a window on
  /// `WAYLAND_DISPLAY`'s compositor when that is set, else on `DISPLAY`'s X server when that is
  /// set, else a private surface (640×360).
  static func openSurface(_ environment: LaunchEnvironment) throws -> any DisplaySink {
    if let target = environment.display {
      guard let server = displayServers.first(where: { $0.server == target.server }) else {
        throw AppError.usage("camera-app cannot present to \(target)")
      }
      return try server.open(target)
    }
    for server in displayServers {
      if let display = try server.openFromHostEnvironment() { return display }
    }
    throw AppError.usage("no display to present to")
  }
}
