#if canImport(Glibc)
  import Glibc
#endif
import CaptureKit
import LaunchContract
import X11Display

/// An X server as camera-app presents to it: a 640×360 preview window (`X11Presenter`) on the
/// server `x11:NAME` names, or on `DISPLAY`'s when bench named no display. If the server goes
/// away later, the app ends with exit status 1 and says so.
enum X11PresentingDisplay: PresentingDisplay {
  static var server: DisplayServerKind { .x11 }

  static func open(_ target: DisplayTarget) throws -> any DisplaySink {
    guard case .x11(let name) = target else {
      throw X11Error(.cannotConnect, "\(target) is not an X server")
    }
    return try openWindow(display: name)
  }

  static func openFromHostEnvironment() throws -> (any DisplaySink)? {
    guard getenv("DISPLAY").map({ $0.pointee != 0 }) == true else { return nil }
    return try openWindow(display: nil)
  }

  /// The preview window on the X server `display` (nil: `DISPLAY`'s).
  static func openWindow(display: String?) throws(X11Error) -> X11Presenter {
    try X11Presenter(
      display: display, width: 640, height: 360, title: "camera-app", pid: getpid(),
      onConnectionLost: { @Sendable error in CameraApp.terminate(.camera(error.message)) })
  }
}
