import BenchKit
import Foundation
import LaunchContract
import PhaseTrace
import RunAnalysis
import TestSupport
import TestThreads
import Testing

/// The preload library against a real V4L2 driver, only when `FIRSTFRAME_V4L2_DEVICE` names a
/// node: the client through each way into the device, and v4l2-ctl, an app we did not write, with
/// and without libv4l2 (`-w`). One at a time (a node streams to one process), and apart from the
/// other device tests: `scripts/vivid-integration` runs this suite on its own against vivid.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct PreloadRealDeviceTests {
  static let device = ProcessInfo.processInfo.environment["FIRSTFRAME_V4L2_DEVICE"].flatMap {
    $0.isEmpty ? nil : $0
  }
  static let v4l2ctlPath: String? = ["/usr/bin/v4l2-ctl", "/bin/v4l2-ctl"].first { (path: String) in
    access(path, X_OK) == 0
  }

  /// Asserts that `events` hold app.main and then the five device phases of `device`, through
  /// `api`, and that PhaseExtractor measures each.
  static func expectCapture(_ events: [PhaseEvent], device: String, api: String, _ what: String) {
    let firsts = PreloadHarness.captureSequence.compactMap { step -> PhaseEvent? in
      events.first { "\($0.name) \($0.kind.rawValue)" == step }
    }
    #expect(
      firsts.count == PreloadHarness.captureSequence.count, "\(what): \(PreloadHarness.sequence(events))")
    #expect(zip(firsts, firsts.dropFirst()).allSatisfy { $0.ts <= $1.ts }, "\(what): phases out of order")
    for event in events where event.name.hasPrefix("device.") {
      #expect(
        event.fields["device"] == .string(device) && event.fields["api"] == .string(api), "\(what): \(event)")
    }
    guard let start = events.first?.ts else { return }
    let phases = PhaseExtractor.phases(from: events, start: start, relock: false)
    for phase in PhaseName.device { #expect(phases[phase] != nil, "\(what): \(phase) missing") }
  }

  @Test(
    "on a real device the client's calls return the same with the library, which sees every phase",
    .enabled(if: device != nil, "set FIRSTFRAME_V4L2_DEVICE=/dev/videoN to run"),
    arguments: PreloadHarness.apis)
  func client(api: String) throws {
    let device = try #require(Self.device)
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let arguments = ["--api", api, "--log", "--frames", "5"]
    let without = try harness.run(arguments, device: device, preload: false, fake: false)
    let with = try harness.run(arguments, device: device, preload: true, fake: false)
    #expect(without.status == 0 && with.status == 0, "\(without.errors) \(with.errors)")
    // A dequeue may find no frame yet (EAGAIN) on one run and not the other: timing, not the library.
    let settled = { (log: [String]) in log.filter { !($0.hasPrefix("dqbuf") && $0.hasSuffix("errno=11")) } }
    #expect(settled(with.log) == settled(without.log))
    Self.expectCapture(with.events, device: device, api: PreloadHarness.apiField(forClientAPI: api), api)
  }

  @Test(
    "v4l2-ctl streaming, directly and through libv4l2 (-w): every device phase, without changing its code",
    .enabled(
      if: device != nil && v4l2ctlPath != nil, "needs FIRSTFRAME_V4L2_DEVICE and v4l2-ctl (v4l-utils)"),
    arguments: [false, true])
  func v4l2ctlStreams(wrapper: Bool) throws {
    let device = try #require(Self.device)
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let trace = harness.folder + "/v4l2-ctl.jsonl"
    var environment = ProcessInfo.processInfo.environment.filter { $0.key != "LD_PRELOAD" }
    environment = PreloadLibrary.environment(environment, library: harness.library, trace: .path(trace))
    let argv =
      [try #require(Self.v4l2ctlPath), "-d", device] + (wrapper ? ["-w"] : [])
      + [
        "--set-fmt-video=width=640,height=480,pixelformat=YUYV", "--set-parm=30", "--stream-mmap",
        "--stream-count=5",
      ]
    let status = try PreloadHarness.spawn(
      argv, environment: environment, stdout: harness.folder + "/out", stderr: harness.folder + "/err",
      timeout: .seconds(120))
    #expect(status == 0, "\((try? String(contentsOfFile: harness.folder + "/err", encoding: .utf8)) ?? "")")
    let events = TraceReader().read(path: trace).events
    Self.expectCapture(
      events, device: device, api: wrapper ? "libv4l2" : "libc", wrapper ? "v4l2-ctl -w" : "v4l2-ctl")
  }
}
