import Foundation
import LaunchContract
import ResultsSchema
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import CameraServices

#if canImport(Glibc)
  import Glibc
#endif

/// bench's private PipeWire against the real pipewire and WirePlumber, serving SPA's test
/// pattern (this host has no V4L2; the V4L2 node is PipeWireVividTests' in the VM): started for a
/// cold run, kept for a warm one, a daemon that died between runs said and started again, a
/// client served through it, stopped and swept without a process or folder left. Skipped, with
/// the packages to install, where PipeWire is not.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: PipeWireService.locate() != nil, "skipped: \(PipeWireService.missingMessage)"))
struct PipeWireServiceTests {
  /// The live processes of process group `group` (zombies left out).
  static func members(ofGroup group: pid_t) -> [pid_t] {
    PipeWireService.processes(inGroup: group).filter { ProcessControl.parentAndState(of: $0)?.state != "Z" }
  }

  /// The app user a root test runs the daemon as: nobody (bench's default), else bench's own.
  static var user: UserIdentity? { geteuid() == 0 ? UserIdentity.lookUp("nobody") : nil }

  static func service() throws -> (PipeWireService, String) {
    let folder = temporaryFolder("pipewire-service")
    chmod(folder, 0o755)
    let service = try PipeWireService(source: .testPattern, user: user, logPath: folder + "/pipewire.log")
    return (service, folder)
  }

  @Test(
    "cold starts a daemon for the run, warm keeps it; both listed, suspended and verified; stop leaves nothing"
  )
  func coldAndWarm() throws {
    let (service, folder) = try Self.service()
    defer { try? FileSystem.remove(atPath: folder) }
    let runtime = service.runtimeFolder
    let cold = service.prepareRun(fresh: true)
    #expect(cold.verified, "\(cold.reason ?? "")")
    #expect(cold.state == "started" && cold.generation == 1 && cold.deviceClosed == true)
    #expect((cold.startToReadyMs ?? 0) > 0)
    let first = try #require(cold.pid.map { pid_t($0) })
    #expect(ProcessControl.isAlive(first))
    // WirePlumber runs in the daemon's group: it ends with it.
    #expect(blockUntil(timeout: .seconds(30)) { Self.members(ofGroup: first).count >= 2 })
    if let user = Self.user {
      var st = stat()
      #expect(stat(runtime, &st) == 0 && st.st_uid == user.uid && st.st_mode & 0o777 == 0o700)
      #expect(FileSystem.readText(atPath: "/proc/\(first)/status")?.contains("Uid:\t\(user.uid)") == true)
    }
    let warm = service.prepareRun(fresh: false)
    #expect(warm.verified && warm.state == "running" && warm.pid == cold.pid && warm.startToReadyMs == nil)
    #expect(service.checkAfterRun(warm) == nil)
    let second = service.prepareRun(fresh: true)
    #expect(second.verified && second.state == "started" && second.generation == 2)
    #expect(second.pid != cold.pid)
    #expect(Self.members(ofGroup: first).isEmpty, "the first daemon's group is left")
    let last = try #require(second.pid.map { pid_t($0) })
    service.stop()
    #expect(Self.members(ofGroup: last).isEmpty)
    #expect(!FileSystem.exists(atPath: runtime))
    service.stop()  // twice is fine
  }

  @Test(
    "WirePlumber, double-forked by the daemon, is bench's own orphan while it runs (never killed as an app's escape) and not after"
  )
  func sessionManagerIsOwnOrphan() throws {
    let (service, folder) = try Self.service()
    defer { try? FileSystem.remove(atPath: folder) }
    let cold = service.prepareRun(fresh: true)
    let daemon = try #require(cold.pid.map { pid_t($0) })
    let others = Self.members(ofGroup: daemon).filter { $0 != daemon }
    #expect(!others.isEmpty, "no session manager in the daemon's group")
    let listed = ProcessControl.ownOrphans.withLock { $0 }
    for pid in others { #expect(listed.contains(pid), "\(pid) is not listed as bench's own") }
    // A cold run's new daemon: the old one's session manager is unlisted, the new one's listed.
    let next = service.prepareRun(fresh: true)
    let second = try #require(next.pid.map { pid_t($0) })
    let now = ProcessControl.ownOrphans.withLock { $0 }
    for pid in others { #expect(!now.contains(pid)) }
    #expect(Self.members(ofGroup: second).filter { $0 != second }.allSatisfy { now.contains($0) })
    let last = Self.members(ofGroup: second)
    service.stop()
    let after = ProcessControl.ownOrphans.withLock { $0 }
    for pid in last { #expect(!after.contains(pid)) }
  }

  @Test(
    "a client reaches the node by name with the client environment alone",
    .enabled(
      if: Prerequisites.onPath("gst-launch-1.0") != nil,
      "skipped: no gst-launch-1.0 (apt-get install gstreamer1.0-tools)"),
    .enabled(
      if: FileSystem.exists(atPath: "/usr/lib/x86_64-linux-gnu/gstreamer-1.0/libgstpipewire.so"),
      "skipped: no pipewiresrc (apt-get install gstreamer1.0-pipewire)"))
  func clientIsServed() throws {
    let (service, folder) = try Self.service()
    defer {
      service.stop()
      try? FileSystem.remove(atPath: folder)
    }
    #expect(service.prepareRun(fresh: true).verified)
    var environment = service.clientEnvironment
    environment["PATH"] = "/usr/bin:/bin"
    environment["HOME"] = folder
    let gst = try TestProcess.run(
      try #require(Prerequisites.onPath("gst-launch-1.0")),
      [
        "-q", "pipewiresrc", "target-object=\(CameraSelection.pipeWireNodeName)", "num-buffers=3", "!",
        "video/x-raw,width=320,height=240", "!", "fakesink",
      ],
      environment: environment, timeout: .seconds(60))
    #expect(gst.terminationStatus == 0, "\(gst.standardErrorText)")
    // The next warm run finds the node suspended again.
    let warm = service.prepareRun(fresh: false)
    #expect(warm.verified && warm.state == "running")
  }

  @Test(
    "a daemon that died between runs: a warm run says so and gets a new one, unverified; after the run, a death is named"
  )
  func diedBetweenRuns() throws {
    let (service, folder) = try Self.service()
    defer {
      service.stop()
      try? FileSystem.remove(atPath: folder)
    }
    let cold = service.prepareRun(fresh: true)
    let pid = try #require(cold.pid.map { pid_t($0) })
    kill(pid, SIGKILL)
    var after: String?
    #expect(
      blockUntil(timeout: .seconds(30)) {
        after = service.checkAfterRun(cold)
        return after != nil
      })
    #expect(after?.contains("killed by signal SIGKILL during the run") == true, "\(after ?? "")")
    let warm = service.prepareRun(fresh: false)
    #expect(!warm.verified)
    #expect(warm.state == "started" && warm.pid != cold.pid)
    #expect(warm.reason?.contains("was not running before this warm run") == true, "\(warm.reason ?? "")")
  }

  @Test("the next bench's sweep kills a gone bench's daemon and removes its folder; a held one stays")
  func sweep() throws {
    let claims = temporaryFolder("pipewire-claims")
    defer { try? FileSystem.remove(atPath: claims) }
    let token = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claims + "/" + token))
    let parent = temporaryFolder("pipewire-parent")
    defer { try? FileSystem.remove(atPath: parent) }
    let folder = parent + "/" + PipeWireService.folderPrefix + token + "-abcdef"
    try FileSystem.createDirectory(atPath: folder, mode: 0o700)
    // A process standing in for the daemon, with the folder as its PIPEWIRE_RUNTIME_DIR.
    let orphan = TestProcess(
      executable: "/bin/sleep", arguments: ["600"], environment: ["PIPEWIRE_RUNTIME_DIR": folder])
    try orphan.run()
    defer {
      orphan.signal(SIGKILL)
      _ = orphan.waitUntilExit(timeout: .seconds(10))
    }
    try FileSystem.replaceAtomically("\(orphan.processIdentifier)\n", atPath: folder + "/daemon.pid")
    #expect(blockUntil(timeout: .seconds(30)) { PipeWireService.leftoverDaemon(in: folder) != nil })
    // A pid named in a folder it does not run in is never killed.
    let stranger = parent + "/" + PipeWireService.folderPrefix + token + "-ghijkl"
    try FileSystem.createDirectory(atPath: stranger, mode: 0o700)
    try FileSystem.replaceAtomically("\(getpid())\n", atPath: stranger + "/daemon.pid")
    #expect(PipeWireService.leftoverDaemon(in: stranger) == nil)
    let live = try MachineClaim(folder: claims)
    let kept = parent + "/" + PipeWireService.folderPrefix + live.token + "-abcdef"
    try FileSystem.createDirectory(atPath: kept, mode: 0o700)
    let removed = PipeWireService.removeStale(in: parent, claims: [claims]).sorted()
    #expect(removed == [folder, stranger].sorted())
    #expect(FileSystem.exists(atPath: kept))
    #expect(orphan.waitUntilExit(timeout: .seconds(30)))
    #expect(orphan.termination == .signaled(SIGKILL))
    withExtendedLifetime(live) {}
  }
}
