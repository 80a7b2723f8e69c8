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

/// The private headless compositor against the real sway and cage (skipped, with the package to
/// install, where they are not): ready with its output at the mode asked, read back through
/// sway's IPC; a client's window reported with its pid; stopped without a process or folder
/// left; a gone bench's compositor killed and its folder removed by the next one's sweep.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: WaylandPrograms.sway, "sway is not installed (apt-get install sway)"))
struct WaylandCompositorTests {
  /// Whether no process with `pid` is left (gone, or a zombie nobody reaps: never one of ours).
  static func gone(_ pid: pid_t) -> Bool { !ProcessControl.isAlive(pid) }

  /// The pids whose process group is `group`.
  static func members(ofGroup group: pid_t) -> [pid_t] {
    ((try? FileSystem.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.filter {
      getpgid($0) == group && ProcessControl.parentAndState(of: $0)?.state != "Z"
    }
  }

  @Test(
    "sway starts headless: the socket accepts, GET_OUTPUTS shows the size and refresh asked, stop leaves nothing"
  )
  func swayStartsAndStops() throws {
    for (w, h, hz) in [(640, 360, 60.0), (1280, 720, 30.0)] {
      let compositor = try WaylandCompositor(.sway, width: w, height: h, refreshHz: hz)
      let pid = compositor.pid
      let folder = compositor.runtimeFolder
      #expect(compositor.socketPath.hasPrefix(folder + "/wayland-"))
      FileDescriptorIO.close(try UnixSocket.connect(path: compositor.socketPath))
      let ipc = try SwayIPC(path: try #require(compositor.ipcSocketPath))
      let outputs = try ipc.outputs(until: MonotonicClock.now() &+ 5_000_000_000)
      ipc.close()
      #expect(outputs.count == 1)
      #expect(outputs.first?.width == w && outputs.first?.height == h)
      #expect(outputs.first?.refreshMillihertz == Int(hz * 1000))
      #expect(compositor.output.refreshMillihertz == Int(hz * 1000))
      #expect(compositor.version.hasPrefix("1."))
      if geteuid() == 0 {
        #expect(compositor.runsAs == 65534)
        var st = stat()
        #expect(stat(folder, &st) == 0 && st.st_uid == 65534 && st.st_mode & 0o777 == 0o700)
      }
      compositor.stop()
      #expect(Self.gone(pid))
      #expect(Self.members(ofGroup: pid).isEmpty)
      #expect(!FileSystem.exists(atPath: folder))
      compositor.stop()  // twice is fine
    }
  }

  @Test(
    "a client's window is reported by sway's IPC with the client's pid, whether mapped before or after the look",
    .enabled(if: WaylandPrograms.foot, "foot is not installed (apt-get install foot)"))
  func windowReportedWithItsPID() throws {
    let compositor = try WaylandCompositor(.sway, width: 640, height: 360, refreshHz: 60)
    defer { compositor.stop() }
    let server = WaylandPrograms.server(of: compositor)
    let events = try SwayWindowEvents(
      ipcSocket: try #require(compositor.ipcSocketPath), until: MonotonicClock.now() &+ 5_000_000_000)
    defer { events.close() }
    let env = server.clientEnvironment(["PATH": "/usr/bin:/bin", "DISPLAY": ":0", "HOME": "/tmp"])
    #expect(env["DISPLAY"] == nil)
    #expect(env["WAYLAND_DISPLAY"] == compositor.socketPath)
    #expect(env["FIRSTFRAME_DISPLAY"] == "wayland:" + compositor.socketPath)
    let client = TestProcess(
      executable: try #require(WaylandServer.locate("foot")), arguments: ["--", "/bin/sleep", "60"],
      environment: env)
    try client.run()
    defer {
      client.signal(SIGKILL)
      _ = client.waitUntilExit(timeout: .seconds(10))
    }
    let app = client.processIdentifier
    let before = MonotonicClock.now()
    let event = try events.firstWindow(
      ownedBy: { ProcessControl.isProcess($0, selfOrDescendantOf: app) },
      until: MonotonicClock.now() &+ UInt64(TestTime.seconds(30) * 1e9))
    let found = try #require(event, "no window of foot reported: \(client.standardErrorText)")
    #expect(found.window.pid == app)
    #expect(found.seenAt >= before)
    #expect(found.window.appID == "foot")
    // Mapped before the look: the tree has it, with the same pid and a place on the output.
    let late = try SwayWindowEvents(
      ipcSocket: try #require(compositor.ipcSocketPath), until: MonotonicClock.now() &+ 5_000_000_000)
    defer { late.close() }
    let again = try late.firstWindow(ownedBy: { $0 == app }, until: MonotonicClock.now() &+ 5_000_000_000)
    #expect(again?.window.id == found.window.id)
    #expect(again?.window.rect == SwayRect(x: 0, y: 0, width: 640, height: 360))
    // Another process's window is never taken for the app's.
    #expect(
      try late.firstWindow(ownedBy: { $0 == getpid() }, until: MonotonicClock.now() &+ 50_000_000) == nil)
  }

  @Test(
    "cage starts headless with its placeholder client; stop leaves no process, socket or folder",
    .enabled(if: WaylandPrograms.cage, "cage is not installed (apt-get install cage)"))
  func cageStartsAndStops() throws {
    let compositor = try WaylandCompositor(.cage, width: 640, height: 360, refreshHz: 60)
    let pid = compositor.pid
    let folder = compositor.runtimeFolder
    #expect(compositor.ipcSocketPath == nil)
    FileDescriptorIO.close(try UnixSocket.connect(path: compositor.socketPath))
    #expect(compositor.output == WaylandCompositor.defaultOutput)
    compositor.stop()
    #expect(Self.gone(pid))
    #expect(Self.members(ofGroup: pid).isEmpty)
    #expect(!FileSystem.exists(atPath: folder))
  }

  @Test("a compositor whose owning thread ends is killed by the kernel, through setpriv too")
  func parentDeathKillsIt() throws {
    let folder = try #require(
      String(validatingCString: mkdtemp(strdup("/tmp/wayland-death-test-XXXXXX")) ?? strdup("")))
    defer { try? FileSystem.remove(atPath: folder) }
    let asNobody = geteuid() == 0
    if asNobody { chown(folder, 65534, 65534) }
    try FileSystem.replaceAtomically(
      WaylandCompositor.swayConfiguration(width: 640, height: 360, refreshHz: 60),
      atPath: folder + "/sway.config")
    let arguments = WaylandCompositor.arguments(
      .sway, program: try #require(WaylandServer.locate("sway")), folder: folder, asNobody: asNobody)
    let spawned = PThreadMutex<pid_t?>(nil)
    let done = DispatchSemaphore(value: 0)
    // The thread spawns and ends at once: the kernel sends the compositor SIGKILL.
    try SystemThread.start(name: "death-test") {
      let pid = try? ProcessControl.spawn(
        path: arguments[0], arguments: arguments,
        environment: WaylandCompositor.environment(.sway, folder: folder),
        descriptors: [1: .appending(toPath: "/dev/null"), 2: .sameAs(1)], deathSignal: SIGKILL)
      spawned.withLock { $0 = pid }
      // Ends once setpriv has set the signal again and exec'd sway (the guard covers the
      // instant before, when bench dies then).
      if let pid {
        _ = blockUntil(timeout: .seconds(30)) {
          FileSystem.readText(atPath: "/proc/\(pid)/comm", maxBytes: 64)?.hasPrefix("sway") == true
        }
      }
      done.signal()
    }
    done.wait()
    let pid = try #require(spawned.withLock { $0 })
    let status = PThreadMutex<Int32?>(nil)
    #expect(
      blockUntil(timeout: .seconds(30)) {
        guard let ended = try? ProcessControl.reapIfEnded(pid) else { return false }
        status.withLock { $0 = ended }
        return true
      })
    // Killed by the signal, not ended on its own (setpriv or sway failing would exit instead).
    #expect(status.withLock { $0 }.flatMap(ProcessControl.signal(ofStatus:)) == SIGKILL)
  }

  @Test(
    "the next compositor's sweep kills a gone bench's compositor and removes its folder (and its Xwayland's lock and socket); a held one stays",
    arguments: [false] + (XwaylandPrograms.xwayland ? [true] : []))
  func sweepRemovesAGoneBenchsCompositor(xwayland: Bool) throws {
    let claims = temporaryFolder("wayland-claims")
    defer { try? FileSystem.remove(atPath: claims) }
    // A dead bench's claim, free.
    let token = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claims + "/" + token))
    let parent = temporaryFolder("wayland-parent")
    defer { try? FileSystem.remove(atPath: parent) }
    chmod(parent, 0o755)
    let folder = parent + "/" + WaylandCompositor.folderPrefix + token + "-abcdef"
    try FileSystem.createDirectory(atPath: folder, mode: 0o700)
    let asNobody = geteuid() == 0
    if asNobody { chown(folder, 65534, 65534) }
    try FileSystem.replaceAtomically(
      WaylandCompositor.swayConfiguration(width: 640, height: 360, refreshHz: 60, xwayland: xwayland),
      atPath: folder + "/sway.config")
    let arguments = WaylandCompositor.arguments(
      .sway, program: try #require(WaylandServer.locate("sway")), folder: folder, asNobody: asNobody)
    // Its compositor outlived it (no parent-death signal here): a process of its own.
    let orphan = TestProcess(
      executable: arguments[0], arguments: Array(arguments.dropFirst()),
      environment: WaylandCompositor.environment(.sway, folder: folder))
    try orphan.run()
    defer {
      orphan.signal(SIGKILL)
      _ = orphan.waitUntilExit(timeout: .seconds(10))
    }
    try FileSystem.replaceAtomically("\(orphan.processIdentifier)\n", atPath: folder + "/compositor.pid")
    #expect(blockUntil(timeout: .seconds(30)) { WaylandCompositor.leftoverCompositor(in: folder) != nil })
    var xFiles: [String] = []
    if xwayland {
      #expect(
        blockUntil(timeout: .seconds(30)) {
          WaylandCompositor.xwaylandDisplayNumber(of: orphan.processIdentifier) != nil
        })
      let number = try #require(WaylandCompositor.xwaylandDisplayNumber(of: orphan.processIdentifier))
      xFiles = ["/tmp/.X\(number)-lock", "/tmp/.X11-unix/X\(number)"]
    }
    // This process's own folder (its claim held) is never another's leftover.
    let live = try MachineClaim(folder: claims)
    let kept = parent + "/" + WaylandCompositor.folderPrefix + live.token + "-abcdef"
    try FileSystem.createDirectory(atPath: kept, mode: 0o700)
    let removed = WaylandCompositor.removeStale(in: parent, claims: [claims])
    #expect(removed == [folder])
    #expect(!FileSystem.exists(atPath: folder))
    #expect(FileSystem.exists(atPath: kept))
    #expect(orphan.waitUntilExit(timeout: .seconds(30)))
    #expect(orphan.termination == .signaled(SIGKILL))
    for file in xFiles { #expect(!FileSystem.exists(atPath: file), "\(file) is left") }
    withExtendedLifetime(live) {}
  }

  @Test("--display wayland:SOCKET that does not answer, is one line; an installed compositor passes")
  func validation() throws {
    do {
      try WaylandServer.validate(.wayland(socket: "/nonexistent/wayland-9"))
      Issue.record("a socket that is not there was accepted")
    } catch {
      #expect(error.message.contains("no Wayland compositor answers at /nonexistent/wayland-9"))
      #expect(!error.message.contains("\n"))
    }
    // sway is installed where this suite runs: the private path passes its checks.
    #expect(throws: Never.self) { try WaylandServer.validate(.privateWayland(.sway)) }
    #expect(
      WaylandCompositor.missingMessage(.cage)
        == "--display wayland-cage needs cage: install the package cage (apt-get install cage)")
    #expect(
      WaylandServer.socketPath("wayland-1", environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
        == "/run/user/7/wayland-1")
    #expect(WaylandServer.socketPath("wayland-1", environment: [:]) == nil)
  }
}

/// The Wayland programs the tests need, found on `PATH`.
enum WaylandPrograms {
  static let sway = WaylandServer.locate("sway") != nil
  static let cage = WaylandServer.locate("cage") != nil
  static let foot = WaylandServer.locate("foot") != nil
  static let gstreamer = WaylandServer.locate("gst-launch-1.0") != nil

  /// bench's server over the private sway `compositor`, for its clients' environment.
  static func server(of compositor: WaylandCompositor) -> WaylandServer {
    WaylandServer(
      compositor: compositor, socketPath: compositor.socketPath, runtimeFolder: compositor.runtimeFolder,
      ipcSocketPath: compositor.ipcSocketPath,
      serverInfo: .init(
        name: compositor.socketPath, vendor: "sway", release: 0, started: true, screen: nil, realtime: nil,
        sharedMemory: true))
  }
}
