import Foundation
import LightBoard
import SystemCalls
import TestSupport
import TestThreads
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// camera-app on a Wayland compositor: FIRSTFRAME_DISPLAY=wayland:/PATH, or WAYLAND_DISPLAY
/// when run by hand.
@Suite(
  "camera-app as a Wayland client of a real headless sway", .blocking, .serialized,
  .timeLimit(.minutes(TestTime.minutes(10))), .enabled(if: HeadlessSway.available, HeadlessSway.skipReason))
struct CameraAppWaylandTests {
  static func run(_ environment: [String: String], seconds: String = "60") throws -> TestProcess {
    var env = ProcessInfo.processInfo.environment
    for name in ["FIRSTFRAME_DISPLAY", "DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR"] {
      env.removeValue(forKey: name)
    }
    env["FIRSTFRAME_APP_STATE"] = NSTemporaryDirectory() + "camera-app-wayland-\(getpid())"
    env["FIRSTFRAME_SYNTHETIC_STATE"] = NSTemporaryDirectory() + "camera-app-wayland-\(getpid())"
    let process = TestProcess(
      executable: BuiltProducts.path("camera-app"),
      arguments: ["--duration", seconds, "--outputs", "preview"],
      environment: env.merging(environment) { _, new in new })
    try process.run()
    return process
  }

  /// What tells camera-app where the compositor is: bench's contract, or the host's session.
  static func environment(_ sway: HeadlessSway, throughContract: Bool) -> [String: String] {
    throughContract ? ["FIRSTFRAME_DISPLAY": "wayland:" + sway.socket] : sway.clientEnvironment
  }

  @Test(
    "told wayland:/PATH, or run by hand with WAYLAND_DISPLAY, camera-app shows the camera's light board on the output and ends on SIGTERM",
    arguments: [true, false])
  func presentsTheBoard(throughContract: Bool) throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let capture = try WaylandPreviewCapture(socket: sway.socket)
    let app = try Self.run(Self.environment(sway, throughContract: throughContract))
    defer { app.signal(SIGKILL) }
    var reading = LightBoardReading.noBoard
    let decoded = try capture.waitForCopy { luma, width, height in
      reading = WaylandPreviewCapture.board(luma, width: width, height: height)
      return reading != .noBoard || !app.isRunning
    }
    #expect(decoded && reading != .noBoard, "no light board on the output: \(app.standardErrorText)")
    kill(app.processIdentifier, SIGTERM)  // the app quits
    #expect(app.waitUntilExit(timeout: .seconds(60)), "camera-app did not quit after SIGTERM")
    #expect(app.terminationStatus == 0, "\(app.standardErrorText)")
  }

  @Test("on Wayland camera-app writes every phase event it writes presenting to its own surface")
  func samePhasesAsOnItsOwnSurface() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let onWayland = try Self.tracedEvents(Self.environment(sway, throughContract: true))
    let onSurface = try Self.tracedEvents([:])  // no display named: a private surface
    #expect(onWayland.contains("preview.first_present event"), "\(onWayland)")
    #expect(onWayland == onSurface)
  }

  /// The names of the events (`name kind`) camera-app traces with `environment` from its start
  /// until its secondary UI is up, then SIGTERM, but the pressure poll's.
  static func tracedEvents(_ environment: [String: String]) throws -> Set<String> {
    let folder = try PrivateDirectory.makeTemporary(prefix: "camera-app-wayland-trace-", in: "/tmp")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let trace = folder + "/trace.jsonl"
    let app = try run(environment.merging(["FIRSTFRAME_TRACE": trace]) { _, new in new })
    defer { app.signal(SIGKILL) }
    let settled = blockUntil(timeout: .seconds(60)) {
      !app.isRunning
        || ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").contains("ui.secondary_visible")
    }
    #expect(settled && app.isRunning, "camera-app did not settle: \(app.standardErrorText)")
    kill(app.processIdentifier, SIGTERM)
    #expect(
      app.waitUntilExit(timeout: .seconds(60)) && app.terminationStatus == 0, "\(app.standardErrorText)")
    let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
    return Set(
      lines.compactMap { line -> String? in
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let name = object["name"] as? String, let kind = object["kind"] as? String, name != "pressure.level"
        else { return nil }
        return name + " " + kind
      })
  }

  @Test("when the compositor goes away, camera-app says so in one line and exits with status 1")
  func compositorGoesAway() throws {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let capture = try WaylandPreviewCapture(socket: sway.socket)
    let app = try Self.run(Self.environment(sway, throughContract: true))
    defer { app.signal(SIGKILL) }
    let shown = try capture.waitForCopy { luma, width, height in
      WaylandPreviewCapture.board(luma, width: width, height: height) != .noBoard || !app.isRunning
    }
    #expect(shown && app.isRunning, "camera-app never presented: \(app.standardErrorText)")
    sway.stop()
    #expect(app.waitUntilExit(timeout: .seconds(60)), "camera-app did not end without its compositor")
    #expect(app.terminationStatus == 1)
    let text = app.standardErrorText
    #expect(
      text.split(separator: "\n").count == 1 && text.contains("Wayland compositor at \(sway.socket)"),
      "\(text)")
  }

  @Test("told a compositor that is not there, camera-app says so in one line and exits with status 2")
  func noCompositor() throws {
    let app = try Self.run(["FIRSTFRAME_DISPLAY": "wayland:/nonexistent/wayland-9"])
    #expect(app.waitUntilExit(timeout: .seconds(60)), "camera-app did not end")
    #expect(app.terminationStatus == 2)
    let text = app.standardErrorText
    #expect(
      text.split(separator: "\n").count == 1
        && text.contains("cannot connect to the Wayland compositor at /nonexistent/wayland-9"), "\(text)")
  }
}
