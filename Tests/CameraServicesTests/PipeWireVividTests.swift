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

/// The V4L2 node `FIRSTFRAME_V4L2_DEVICE` names, when it is there.
private let vividDevice = ProcessInfo.processInfo.environment["FIRSTFRAME_V4L2_DEVICE"].flatMap {
  FileSystem.exists(atPath: $0) ? $0 : nil
}

/// bench's private PipeWire against a real V4L2 node (vivid in scripts/vivid-vm; CI's VM step runs
/// it with `FIRSTFRAME_V4L2_DEVICE=/dev/video0`): the node is suspended with the device closed at
/// the start; while a client streams, the daemon holds the device open (read from `/proc`, the
/// kernel's view), so a warm run could not begin and says why; once the client is gone the node
/// suspends and the device is closed again. Skipped, saying why, without a device or PipeWire.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: vividDevice != nil, "set FIRSTFRAME_V4L2_DEVICE=/dev/videoN to run"),
  .enabled(if: PipeWireService.locate() != nil, "skipped: \(PipeWireService.missingMessage)"))
struct PipeWireVividTests {
  static var device: String? { vividDevice }

  @Test(
    "the daemon holds the device only while a client streams: a warm run waits for the suspend, and says when it never comes"
  )
  func deviceHeldWhileStreaming() throws {
    let device = try #require(Self.device)
    let folder = temporaryFolder("pipewire-vivid")
    chmod(folder, 0o755)
    defer { try? FileSystem.remove(atPath: folder) }
    // As root the daemon runs as root here: nobody would need the node's group (bench gives it).
    let service = try PipeWireService(
      source: .device(path: device), user: nil, logPath: folder + "/pipewire.log")
    defer { service.stop() }
    let cold = service.prepareRun(fresh: true)
    #expect(cold.verified && cold.deviceClosed == true, "\(cold.reason ?? "")")
    let daemon = try #require(cold.pid.map { pid_t($0) })
    let gst = try #require(Prerequisites.onPath("gst-launch-1.0"))
    var environment = service.clientEnvironment
    environment["PATH"] = "/usr/bin:/bin"
    environment["HOME"] = folder
    let client = TestProcess(
      executable: gst,
      arguments: [
        "pipewiresrc", "target-object=\(CameraSelection.pipeWireNodeName)", "!",
        "video/x-raw,format=YUY2,width=640,height=360,framerate=30/1", "!", "fakesink",
      ],
      environment: environment)
    try client.run()
    let real = try #require(FileSystem.realPath(device))
    // Streaming once gst says PLAYING (its first buffer came): the daemon's probe of the node, an
    // open and a close before the stream's, is over by then.
    let playing = blockUntil(timeout: .seconds(60)) {
      String(decoding: client.standardOutputData, as: UTF8.self).contains("Setting pipeline to PLAYING")
    }
    #expect(playing, "gst never played: \(client.standardErrorText)")
    #expect(PipeWireService.holdsOpen(real, pid: daemon), "the daemon does not hold \(device) for its client")
    let busy = service.prepareRun(fresh: false, deadline: 1)
    #expect(!busy.verified && busy.deviceClosed == false)
    #expect(busy.reason?.contains("still held \(device) open") == true, "\(busy.reason ?? "")")
    client.signal(SIGKILL)  // the client gone as a killed app is: the daemon sees it disconnect
    #expect(client.waitUntilExit(timeout: .seconds(30)))
    let warm = service.prepareRun(fresh: false)
    #expect(warm.verified && warm.state == "running" && warm.pid == cold.pid, "\(warm.reason ?? "")")
    #expect(!PipeWireService.holdsOpen(real, pid: daemon))
  }
}
