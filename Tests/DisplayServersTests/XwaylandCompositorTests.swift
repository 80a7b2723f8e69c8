import CompositorIPC
import Foundation
import LaunchContract
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import DisplayServers

#if canImport(Glibc)
  import Glibc
#endif

/// `--display wayland+xwayland` (issue 36): the private sway with Xwayland started with it, against
/// the real sway and Xwayland (skipped, with the package to install, where they are not): its X
/// display serves before the app starts, an X11 client's window is reported by sway's IPC with the
/// client's pid, and nothing of Xwayland — lock file, socket, process — is left when sway stops
/// or was killed.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: WaylandPrograms.sway, "sway is not installed (apt-get install sway)"),
  .enabled(if: XwaylandPrograms.xwayland, "Xwayland is not installed (apt-get install xwayland)"))
struct XwaylandCompositorTests {
  /// Xwayland's lock file and socket for `display` (`:N`).
  static func files(of display: String) -> [String] {
    let number = display.dropFirst()
    return ["/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"]
  }

  /// What of display `display` the compositor `pid` left: its lock file while it names `pid`, and
  /// the socket while no lock names a live process. Another suite's compositor may take the same
  /// display number the moment this one freed it: its files are not this one's leftovers.
  static func leftBehind(by pid: pid_t, display: String) -> [String] {
    let (lock, socket) = (files(of: display)[0], files(of: display)[1])
    let holder = FileSystem.readText(atPath: lock, maxBytes: 64).flatMap {
      pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0"))))
    }
    if holder == pid { return [lock] + (FileSystem.exists(atPath: socket) ? [socket] : []) }
    let live = holder.map { ProcessControl.isAlive($0) } ?? false
    return !live && FileSystem.exists(atPath: socket) ? [socket] : []
  }

  @Test(
    "wayland+xwayland: Xwayland serves its display when sway is ready, the app gets it as DISPLAY, and stop leaves no lock, socket or process"
  )
  func xwaylandStartsAndStops() throws {
    let compositor = try WaylandCompositor(.sway, width: 640, height: 360, refreshHz: 60, xwayland: true)
    let pid = compositor.pid
    let display = try #require(compositor.xwaylandDisplay)
    #expect(display.hasPrefix(":") && Int(display.dropFirst()) != nil)
    #expect(WaylandCompositor.xwaylandDisplayNumber(of: pid) == Int(display.dropFirst()))
    for file in Self.files(of: display) { #expect(FileSystem.exists(atPath: file), "\(file)") }
    #expect(
      WaylandCompositor.xServerAnswers(
        at: Self.files(of: display)[1], deadline: MonotonicClock.now() &+ 5_000_000_000))
    let config = FileSystem.readText(atPath: compositor.runtimeFolder + "/sway.config") ?? ""
    #expect(config.contains("xwayland force"))
    let server = WaylandPrograms.server(of: compositor)
    let env = server.clientEnvironment(["DISPLAY": ":0", "XAUTHORITY": "/root/.Xauthority", "HOME": "/tmp"])
    #expect(env["DISPLAY"] == display)
    #expect(env["XAUTHORITY"] == nil)
    #expect(env["WAYLAND_DISPLAY"] == compositor.socketPath)
    let xwayland = WaylandCompositorTests.members(ofGroup: pid).filter { $0 != pid }
    #expect(!xwayland.isEmpty, "no Xwayland in sway's process group")
    // Xwayland by its pid is bench's own orphan, nothing else of sway's group.
    let own = try #require(compositor.xwaylandProcessID)
    #expect(xwayland.contains(own))
    #expect(ProcessControl.ownOrphans.withLock { $0.contains(own) })
    compositor.stop()
    #expect(!ProcessControl.ownOrphans.withLock { $0.contains(own) })
    #expect(WaylandCompositorTests.gone(pid))
    // Xwayland got SIGKILL with sway's group; it is gone (or a zombie for its parent to reap) soon.
    func ended(_ p: pid_t) -> Bool {
      WaylandCompositorTests.gone(p) || ProcessControl.parentAndState(of: p)?.state == "Z"
    }
    _ = blockUntil(timeout: .seconds(10)) { xwayland.allSatisfy(ended) }
    for p in xwayland { #expect(ended(p), "Xwayland's pid \(p) is left") }
    #expect(Self.leftBehind(by: pid, display: display).isEmpty)
    #expect(!FileSystem.exists(atPath: compositor.runtimeFolder))
  }

  @Test("a sway killed with SIGKILL leaves Xwayland's lock and socket, and stop removes them")
  func killedSwayLeavesNothingAfterStop() throws {
    let compositor = try WaylandCompositor(.sway, width: 640, height: 360, refreshHz: 60, xwayland: true)
    let pid = compositor.pid
    let display = try #require(compositor.xwaylandDisplay)
    #expect(kill(pid, SIGKILL) == 0)
    try #require(
      blockUntil(timeout: .seconds(10)) { compositor.exitReason != nil }, "sway did not end after SIGKILL")
    // What the kill left (wlroots removes these on a clean exit only).
    #expect(FileSystem.exists(atPath: Self.files(of: display)[0]))
    compositor.stop()
    #expect(Self.leftBehind(by: pid, display: display).isEmpty)
  }

  @Test(
    "an X11 client on Xwayland (gst-launch-1.0 videotestsrc ! ximagesink) is reported by sway's IPC with its pid",
    .enabled(if: WaylandPrograms.gstreamer, "gst-launch-1.0 is not installed (scripts/install-deps)"))
  func x11WindowReportedWithItsPID() throws {
    let compositor = try WaylandCompositor(.sway, width: 640, height: 360, refreshHz: 60, xwayland: true)
    defer { compositor.stop() }
    let events = try SwayWindowEvents(
      ipcSocket: try #require(compositor.ipcSocketPath), until: MonotonicClock.now() &+ 5_000_000_000)
    defer { events.close() }
    let env = WaylandPrograms.server(of: compositor).clientEnvironment([
      "PATH": "/usr/bin:/bin", "HOME": "/tmp",
    ])
    // As the compositor's user (nobody when the tests run as root): the one Xwayland lets in.
    let gst = try #require(WaylandServer.locate("gst-launch-1.0"))
    let command =
      geteuid() == 0
      ? [WaylandCompositor.setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", gst] : [gst]
    let client = TestProcess(
      executable: command[0],
      arguments: Array(command.dropFirst()) + ["videotestsrc", "!", "ximagesink"],
      environment: env)
    try client.run()
    defer {
      client.signal(SIGKILL)
      _ = client.waitUntilExit(timeout: .seconds(10))
    }
    let app = client.processIdentifier
    let event = try events.firstWindow(
      ownedBy: { ProcessControl.isProcess($0, selfOrDescendantOf: app) },
      until: MonotonicClock.now() &+ UInt64(TestTime.seconds(30) * 1e9))
    let found = try #require(event, "no window of gst reported: \(client.standardErrorText)")
    #expect(found.window.pid == app)
  }

  @Test("without Xwayland's lock naming the compositor, no display is named and nothing is removed")
  func lockOfAnotherProcessIsLeftAlone() throws {
    let folder = temporaryFolder("xwayland-locks")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileSystem.replaceAtomically("      4242\n", atPath: folder + "/.X7-lock")
    try FileSystem.replaceAtomically("      4243\n", atPath: folder + "/.X8-lock")
    try FileSystem.replaceAtomically("x", atPath: folder + "/.X9-lock.tmp")
    #expect(WaylandCompositor.xwaylandDisplayNumber(of: 4243, in: folder) == 8)
    #expect(WaylandCompositor.xwaylandDisplayNumber(of: 4244, in: folder) == nil)
  }
}

/// Xwayland's program, for the skips.
enum XwaylandPrograms {
  static let xwayland = WaylandServer.locate("Xwayland") != nil
}
