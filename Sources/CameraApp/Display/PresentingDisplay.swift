import CaptureKit
import LaunchContract

/// One display server as camera-app presents to it: the app's side of the display-server seam.
/// Each server opens the preview (a `DisplaySink`, which `PreviewOutput` presents into) on the
/// targets of its kind (`FIRSTFRAME_DISPLAY`), and says whether the host's own environment
/// names one of its servers when bench named none. ``CameraApp/displayServers`` lists them.
protocol PresentingDisplay {
  /// The kind of server this opens previews on.
  static var server: DisplayServerKind { get }

  /// Opens the 640×360 preview on `target`, one of this server's targets
  /// (`target.server == server`).
  /// - Throws: the server's error (the surface or the server cannot be opened).
  static func open(_ target: DisplayTarget) throws -> any DisplaySink

  /// Opens the preview when `FIRSTFRAME_DISPLAY` is unset: on the server the host's environment
  /// names (`DISPLAY` for X11), or nil when it names none of this kind.
  /// - Throws: the server's error.
  static func openFromHostEnvironment() throws -> (any DisplaySink)?
}
