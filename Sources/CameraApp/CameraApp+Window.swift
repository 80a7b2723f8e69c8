#if canImport(Glibc)
  import Glibc
#endif
import X11Display

extension CameraApp {
  /// The preview window on the X server `display` (nil: `DISPLAY`'s), 640×360 like the private
  /// surface. If the server goes away later, the app ends with exit status 1 and says so.
  static func openWindow(display: String?) throws(X11Error) -> X11Presenter {
    try X11Presenter(
      display: display, width: 640, height: 360, title: "camera-app", pid: getpid(),
      onConnectionLost: { @Sendable error in terminate(.camera(error.message)) })
  }
}
