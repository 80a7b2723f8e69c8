import Foundation
import TestSupport
import TestThreads
import Testing
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

/// camera-app on an X server: FIRSTFRAME_DISPLAY=x11:NAME, or DISPLAY when run by hand.
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct CameraAppX11Tests {
  static func run(_ environment: [String: String], seconds: String = "20") throws -> TestProcess {
    var env = ProcessInfo.processInfo.environment
    env.removeValue(forKey: "FIRSTFRAME_DISPLAY")
    env.removeValue(forKey: "DISPLAY")
    env.removeValue(forKey: "WAYLAND_DISPLAY")
    env["FIRSTFRAME_APP_STATE"] = NSTemporaryDirectory() + "camera-app-x11-\(getpid())"
    env["FIRSTFRAME_SYNTHETIC_STATE"] = NSTemporaryDirectory() + "camera-app-x11-\(getpid())"
    let p = TestProcess(
      executable: BuiltProducts.path("camera-app"),
      arguments: ["--duration", seconds, "--outputs", "preview"],
      environment: env.merging(environment) { _, new in new })
    try p.run()
    return p
  }

  @Test(
    "run by hand with DISPLAY set, or told x11:NAME, camera-app maps a window carrying its pid and shows frames in it",
    arguments: [false, true])
  func presentsInAWindow(throughContract: Bool) throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let capture = try X11WindowCapture(display: server.displayName, authorization: server.authorization)
    defer { capture.close() }
    let env =
      throughContract
      ? ["FIRSTFRAME_DISPLAY": "x11:" + server.displayName, "XAUTHORITY": server.authorityFile]
      : ["DISPLAY": server.displayName, "XAUTHORITY": server.authorityFile]
    let app = try Self.run(env)
    var window: UInt32?
    var sawFrame = false
    _ = blockUntil(timeout: .seconds(20), every: .milliseconds(2)) {
      for case .mapped(let w, _) in (try? capture.pollEvents()) ?? [] where window == nil {
        if capture.processID(of: w) == app.processIdentifier {
          window = w
          try? capture.watch(w)
        }
      }
      if window != nil, (try? capture.readChanges()) != nil {
        sawFrame = capture.withLuma { base, w, h in (0..<(w * h)).contains { base[$0] > 16 } }
      }
      return sawFrame
    }
    #expect(window != nil, "no window with camera-app's pid was mapped")
    #expect(capture.width == 640 && capture.height == 360)
    #expect(sawFrame, "the window never showed a frame")
    kill(app.processIdentifier, SIGTERM)  // the app quits
    #expect(app.waitUntilExit(timeout: .seconds(60)), "camera-app did not quit after SIGTERM")
    #expect(app.terminationStatus == 0, "\(app.standardErrorText)")
  }

  @Test("told an X server that is not there, camera-app says so in one line and exits with status 2")
  func noServer() throws {
    let app = try Self.run(["FIRSTFRAME_DISPLAY": "x11::4999"])
    #expect(app.waitUntilExit(timeout: .seconds(60)), "camera-app did not end")
    #expect(app.terminationStatus == 2)
    let text = app.standardErrorText
    #expect(
      text.split(separator: "\n").count == 1 && text.contains("cannot connect to the X display :4999"),
      "\(text)")
  }
}
