import CompositorIPC
import LaunchContract
import Probe
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import DisplayServers

#if canImport(Glibc)
  import Glibc
#endif

/// The Wayland probe on an output larger than the app's window (issue 36): with sway's IPC as its
/// window watcher it analyses the window's region of the output, as X11 reads the window, not
/// the whole output.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: WaylandPrograms.sway, "sway is not installed (apt-get install sway)"),
  .enabled(
    if: WaylandPrograms.gstreamer,
    "gst-launch-1.0 is not installed (apt-get install gstreamer1.0-tools gstreamer1.0-plugins-bad)"))
struct WaylandProbeRegionTests {
  @Test("a 320×240 client on a 1280×800 output: the probe finds its window and analyses its region only")
  func smallWindowOnLargeOutput() throws {
    let compositor = try WaylandCompositor(.sway, width: 1280, height: 800, refreshHz: 60)
    defer { compositor.stop() }
    let watcher = SwayWindowWatcher(ipcSocket: try #require(compositor.ipcSocketPath))
    let monitor = try DisplayMonitor(waylandSocket: compositor.socketPath, windows: watcher)
    defer { monitor.stop() }
    // Before any window: the whole output.
    #expect(blockUntil(timeout: .seconds(20)) { !Self.regions(monitor).isEmpty })
    #expect(Self.regions(monitor).first?.width == 1280 && Self.regions(monitor).first?.window == "")
    let server = WaylandPrograms.server(of: compositor)
    let environment = server.clientEnvironment(["PATH": "/usr/bin:/bin", "HOME": "/tmp"])
    let client = TestProcess(
      executable: try #require(WaylandServer.locate("gst-launch-1.0")),
      arguments: [
        "-q", "videotestsrc", "pattern=ball", "!", "video/x-raw,width=320,height=240,framerate=60/1", "!",
        "waylandsink",
      ],
      environment: environment)
    try client.run()
    defer {
      client.signal(SIGKILL)
      _ = client.waitUntilExit(timeout: .seconds(10))
    }
    monitor.watch(processID: client.processIdentifier)
    // sway centres the 320×240 client in its 1280×800 container: (480, 280).
    let found = blockUntil(timeout: .seconds(60)) {
      Self.regions(monitor).contains { $0.width == 320 && $0.height == 240 }
    }
    #expect(found, "regions: \(Self.regions(monitor)); client: \(client.standardErrorText)")
    let region = try #require(Self.regions(monitor).first { $0.width == 320 && $0.height == 240 })
    #expect(region.x == 480 && region.y == 280 && region.scale == 1)
    let mapped = try #require(
      monitor.snapshot().events.first { $0.name == EventName.displayWindowMapped.rawValue })
    #expect(mapped.fields["owner_pid"] == .int(Int64(client.processIdentifier)))
    #expect(mapped.fields["window"].map { .string(region.window) == $0 } == true)
    #expect(monitor.failure == nil)
  }

  /// The `display.probe_region` events so far, in order.
  static func regions(_ monitor: DisplayMonitor) -> [(
    window: String, x: Int64, y: Int64, width: Int64, height: Int64, scale: Int64
  )] {
    monitor.snapshot().events.filter { $0.name == EventName.displayProbeRegion.rawValue }.map { e in
      func int(_ key: String) -> Int64 {
        if case .int(let v)? = e.fields[key] { return v }
        return -1
      }
      var window = ""
      if case .string(let w)? = e.fields["window"] { window = w }
      return (window, int("x"), int("y"), int("width"), int("height"), int("read_scale"))
    }
  }
}
