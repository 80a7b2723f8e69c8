import BenchKit
import Foundation
import LaunchContract
import ResultsSchema
import TestSupport
import TestThreads
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An unmodified X11 app measured through Xwayland on bench's private sway (`--display
/// wayland+xwayland`, issue 36): it gets Xwayland's `DISPLAY`, its window is found by sway's IPC
/// with its pid, and its first frame is read from the compositor's output.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: Prerequisites.onPath("sway") != nil, "sway is not installed (apt-get install sway)"),
  .enabled(
    if: Prerequisites.onPath("Xwayland") != nil, "Xwayland is not installed (apt-get install xwayland)"),
  .enabled(if: ThirdPartyAppTests.gstreamer, ThirdPartyAppTests.gstreamerMissing))
struct XwaylandBenchTests {
  /// The app users to try: bench's default, and as root also root itself, whom Xwayland (sway's
  /// user's) lets in only by name (xhost, when installed).
  static let appUsers: [String?] =
    [nil] + (geteuid() == 0 && Prerequisites.onPath("xhost") != nil ? ["root"] : [])

  @Test(
    "gst-launch-1.0 videotestsrc ! ximagesink on wayland+xwayland: window_mapped from sway's IPC, first_frame_observed from the output, Xwayland's display recorded, nothing left",
    arguments: appUsers)
  func x11AppThroughXwayland(appUser: String?) throws {
    let out = temporaryFolder("bench-xwayland")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let p = try BenchInvocation.start(
      [
        "--display", "wayland+xwayland", "--app-config", "xgst=gst-launch-1.0 videotestsrc ! ximagesink",
        "--conditions", "warm", "--runs", "2", "--warmup", "1", "--quiet", "--out", out,
      ] + (appUser.map { ["--app-user", $0] } ?? []) + ThirdPartyAppTests.patientLimits)
    try #require(p.waitUntilExit(timeout: .seconds(540)), "bench did not end")
    let results = try ResultsFile.load(path: out + "/results.json")
    let errors = results.cells.flatMap { c in c.records.compactMap(\.error) }
    #expect(p.terminationStatus == 0, "\(errors)")
    #expect(results.settings.display == "wayland+xwayland")
    let display = try #require(results.settings.displayServer?.xwayland)
    #expect(display.hasPrefix(":"))
    let cell = try #require(results.cells.first)
    #expect(cell.runs == 2 && cell.failed == 0, "\(errors)")
    for record in cell.records {
      let mapped = try #require(record.phases[PhaseName.windowMapped])
      let observed = try #require(record.phases[PhaseName.firstFrameObserved])
      #expect(mapped <= observed)
      #expect(record.counts[.firstFrameByChange] == 1)
      // Xwayland, re-parented to bench by wlroots' double fork, is not the app's escape: killed
      // after every run, it came back with its access list reset and an app user other than
      // sway's was refused ("Authorization required").
      #expect((record.counts[.escapedProcesses] ?? 0) == 0)
    }
    // Its lock is gone, or (suites run side by side) another live compositor's now.
    let lock = "/tmp/.X\(display.dropFirst())-lock"
    let holder = (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap {
      pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(holder.map { kill($0, 0) == 0 } ?? true, "\(lock) is left, naming a process that is gone")
  }
}
