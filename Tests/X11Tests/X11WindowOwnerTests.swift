import DisplayServers
import BenchKit
import Foundation
import LaunchContract
import SystemCalls
import TestSupport
import TestThreads
import Testing
import X11Display

#if canImport(Glibc)
  import Glibc
#endif

@testable import Probe

/// On a shared X server, the probe takes a window for the app's only when the server says a
/// process of the app owns it (X-Resource `QueryClientIds`), never for being mapped first or for a
/// `_NET_WM_PID` another client wrote (issue 28, item 5).
// Skipped where Xvfb or the XCB libraries are missing (XvfbFixture.skipReason says so).
@Suite(
  .blocking, .serialized, .enabled(if: XvfbFixture.available, XvfbFixture.skipReason),
  .timeLimit(.minutes(TestTime.minutes(10))))
struct X11WindowOwnerTests {
  /// Starts camera-app on `server` from a shell that first waits for a line on the FIFO `gate`,
  /// and runs camera-app as its child (not exec'd): the app's pid is the shell's, known before
  /// any window of the app exists, and its window belongs to a process the app started.
  static func gatedCameraApp(on server: XvfbServer, gate: String, state: String) throws -> TestProcess {
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "DISPLAY")
    environment["FIRSTFRAME_DISPLAY"] = "x11:" + server.displayName
    environment["XAUTHORITY"] = server.authorityFile
    environment["FIRSTFRAME_APP_STATE"] = state + "/app"
    environment["FIRSTFRAME_SYNTHETIC_STATE"] = state + "/camera"
    environment["CAMERA_APP"] = BuiltProducts.path("camera-app")
    let script = """
      read line < "$1"
      "$CAMERA_APP" --duration 60 --outputs preview
      exit $?
      """
    let shell = TestProcess(
      executable: "/bin/sh", arguments: ["-c", script, "gated-camera-app", gate], environment: environment)
    try shell.run()
    return shell
  }

  /// Opens the FIFO `path` for writing once its reader has it open, and writes a line.
  static func release(_ path: String) -> Bool {
    var fd: Int32 = -1
    _ = blockUntil(timeout: .seconds(10), every: .milliseconds(5)) {
      fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
      return fd >= 0
    }
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return write(fd, "go\n", 3) == 3
  }

  @Test(
    "a window of another client is never the app's — not mapped first without _NET_WM_PID, not with the app's pid written in its _NET_WM_PID — and the window of a process the app started is"
  )
  func onlyTheAppsProcessOwnsItsWindow() throws {
    let server = try XvfbFixture.start()
    defer { server.stop() }
    let folder = temporaryFolder("x11-owner")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let gate = folder + "/gate"
    try #require(mkfifo(gate, 0o600) == 0)
    let app = try Self.gatedCameraApp(on: server, gate: gate, state: folder)
    defer {
      // camera-app (the shell's child) quits on SIGTERM, and the shell then ends with it.
      let pid = app.processIdentifier
      let children = FileSystem.readText(atPath: "/proc/\(pid)/task/\(pid)/children") ?? ""
      for child in children.split(separator: " ").compactMap({ pid_t($0.trimmingWhitespace()) }) {
        kill(child, SIGTERM)
      }
      app.terminate()
      _ = app.waitUntilExit(timeout: .seconds(60))
    }
    let monitor = try DisplayMonitor(x11Display: server.displayName, authorization: server.authorization)
    defer { monitor.stop() }
    monitor.arm(.launch(since: MonotonicClock.now()))
    monitor.watch(processID: app.processIdentifier)
    // This process's windows, mapped (each presenter waits for the server) before the app can
    // start: the first carries no _NET_WM_PID, the second claims the app's pid.
    let unnamed = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 64, height: 48, title: "other",
      pid: nil)
    defer { unnamed.close() }
    let forged = try X11Presenter(
      display: server.displayName, authorization: server.authorization, width: 64, height: 48,
      title: "forged",
      pid: app.processIdentifier)
    defer { forged.close() }
    try #require(Self.release(gate), "the gated app never opened its FIFO: \(app.standardErrorText)")
    let found = blockUntil(timeout: .seconds(30)) {
      monitor.snapshot().events.contains { $0.name == EventName.displayWindowMapped.rawValue }
    }
    try #require(found, "no window was taken for the app: \(app.standardErrorText)")
    let mapped = try #require(
      monitor.snapshot().events.first { $0.name == EventName.displayWindowMapped.rawValue })
    let taken = mapped.fields["window"]
    #expect(taken != .string("0x" + String(unnamed.window, radix: 16)), "the first window mapped was taken")
    #expect(taken != .string("0x" + String(forged.window, radix: 16)), "a forged _NET_WM_PID was believed")
    #expect(mapped.fields["method"] == .string("client_pid"))
    #expect(mapped.fields["app_pid"] == .int(Int64(app.processIdentifier)))
    // camera-app runs as the shell's child: its window's owner is a process the app started.
    guard case .int(let owner) = mapped.fields["owner_pid"] else {
      Issue.record("no owner_pid in \(mapped.fields)")
      return
    }
    #expect(owner != Int64(app.processIdentifier) && owner > 1)
  }
}
