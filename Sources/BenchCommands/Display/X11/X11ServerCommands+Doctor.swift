import DisplayServers
import BenchKit
import Foundation
import X11Display

extension X11ServerCommands {
  /// `bench doctor`'s line on the X11 display path.
  static func doctorLine() -> String? { "X11 display path (--display x11): \(doctorFindings())" }

  /// Whether `--display x11` can run here (the XCB libraries and Xvfb), and whether `DISPLAY`'s
  /// server answers (for `--display x11:NAME`).
  static func doctorFindings() -> String {
    do {
      try X11Library.load(X11Library.probing)
    } catch {
      return "no (\(error.message))"
    }
    guard XvfbServer.locate() != nil else { return "no (\(XvfbServer.missingMessage))" }
    var line = "yes (Xvfb and libxcb, libxcb-shm, libxcb-damage, libxcb-render present)"
    if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
      do {
        let capture = try X11WindowCapture(display: display)
        line +=
          "; DISPLAY \(display): \(capture.connection.setup.vendor), DAMAGE yes, MIT-SHM "
          + (capture.usesSharedMemory ? "yes" : "no")
        capture.close()
      } catch {
        line += "; DISPLAY \(display): \(error.message)"
      }
    }
    return line
  }
}
