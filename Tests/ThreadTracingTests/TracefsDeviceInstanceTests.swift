import Foundation
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing
import ThreadTracing

/// The session's device instance (docs/kernel-device-phases.md): made where the kernel has V4L2's
/// tracepoints and syscall tracing, recording every process's opens and removed with the session;
/// elsewhere absent, saying which events the kernel lacks. Needs root and tracefs; skipped otherwise,
/// with the reason. (That its text gives the device phases is KernelDevicePhasesTests, from the VM's.)
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: TracefsAvailability.reason == nil, Comment(rawValue: TracefsAvailability.reason ?? "")))
struct TracefsDeviceInstanceTests {
  static var kernelHasEvents: Bool {
    TracefsSession.deviceEvents.allSatisfy {
      FileManager.default.fileExists(atPath: TracefsSession.defaultRoot + "/events/" + $0)
    }
  }

  @Test(
    "the device instance is there when the kernel has every event, and removed at close; else the session says why not"
  )
  func deviceInstance() throws {
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token)
    defer { withExtendedLifetime(claim) {} }
    guard Self.kernelHasEvents else {
      session.close()
      #expect(session.devicePath == nil)
      let absence = try #require(session.deviceAbsence)
      #expect(absence.contains("no "), "\(absence)")
      return
    }
    let path = try #require(session.devicePath, "\(session.deviceAbsence ?? "")")
    #expect(session.deviceAbsence == nil)
    #expect(FileManager.default.fileExists(atPath: path))
    #expect(FileSystem.readText(atPath: path + "/trace_clock")?.contains("[mono]") == true)
    // Every process: no pid filter on the device instance.
    #expect(
      FileSystem.readText(atPath: path + "/set_event_pid")?.trimmingCharacters(in: .whitespacesAndNewlines)
        == "")
    try session.begin()
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "cat /proc/self/stat > /dev/null"], environment: [:])
    _ = child.wait(timeout: 30)
    let capture = session.end()
    #expect(capture.deviceText.contains("sys_openat"), "\(capture.deviceText.prefix(2000))")
    session.close()
    #expect(!FileManager.default.fileExists(atPath: path))
  }
}
