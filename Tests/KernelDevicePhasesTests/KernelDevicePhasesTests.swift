import Foundation
import LaunchContract
import PhaseTrace
import TestSupport
import Testing

@testable import KernelDevicePhases

/// The kernel's device phases from real kernel text: `v4l2-ctl --stream-mmap --stream-count=3 -d
/// /dev/video0` on vivid under Debian's 6.1 kernel in scripts/vivid-vm, traced by an instance
/// with bench's device events (Fixtures/vivid-v4l2-ctl-trace.txt; the events' formats beside it).
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct KernelDevicePhasesTests {
  static func fixture(_ name: String) throws -> String {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Fixtures/" + name)
    return try String(contentsOf: url, encoding: .utf8)
  }

  static func ns(_ seconds: String) -> UInt64 {
    KernelDeviceTraceParser.nanoseconds(Substring(seconds)) ?? 0
  }

  @Test("every line of the VM's trace that names one of the events is read; none is malformed")
  func parsesTheVMTrace() throws {
    let parsed = KernelDeviceTraceParser.parse(try Self.fixture("vivid-v4l2-ctl-trace.txt"))
    #expect(parsed.malformedLines == 0)
    #expect(parsed.events.count { $0.kind == .openEnter } == parsed.events.count { $0.kind == .openEnter })
    let dequeued = parsed.events.filter { if case .dequeued = $0.kind { true } else { false } }
    #expect(dequeued.count == 3)
    #expect(dequeued.first?.kind == .dequeued(minor: 0, capture: true))
    #expect(dequeued.first?.tid == 174)
    #expect(dequeued.first?.tgid == 174)
    #expect(dequeued.first?.comm == "v4l2-ctl")
    let done = parsed.events.filter { if case .bufferDone = $0.kind { true } else { false } }
    #expect(done.first?.comm == "vivid-000-vid-c")
    #expect(done.first?.ts == Self.ns("63.484166"))
  }

  @Test("system call lines: arguments and results in hexadecimal, a negative errno read back")
  func syscallLines() {
    let enter = KernelDeviceTraceParser.parse(
      line:
        "        v4l2-ctl-174     (    174) [000] ...1.    63.050164: sys_ioctl(fd: 3, cmd: 40045612, arg: 7fffe9dc6970)"
    )
    #expect(
      enter
        == .event(
          .init(
            ts: Self.ns("63.050164"), tid: 174, tgid: 174, comm: "v4l2-ctl",
            kind: .ioctlEnter(fd: 3, request: 0x4004_5612))))
    let failed = KernelDeviceTraceParser.parse(
      line: "        v4l2-ctl-174     (    174) [000] ...1.    62.921288: sys_ioctl -> 0xffffffffffffffea")
    #expect(
      failed
        == .event(
          .init(
            ts: Self.ns("62.921288"), tid: 174, tgid: 174, comm: "v4l2-ctl", kind: .ioctlExit(result: -22))))
    let opened = KernelDeviceTraceParser.parse(
      line: "  gst-launch-1.0-9 (-------) [001] ...1. 5.000001: sys_openat -> 0x1a")
    #expect(
      opened
        == .event(
          .init(ts: 5_000_001_000, tid: 9, tgid: nil, comm: "gst-launch-1.0", kind: .openExit(result: 26))))
    let mapped = KernelDeviceTraceParser.parse(
      line:
        "  cam-12 (   10) [001] ...1. 5.5: sys_mmap(addr: 0, len: 96000, prot: 3, flags: 1, fd: 5, off: 0)")
    #expect(
      mapped == .event(.init(ts: 5_500_000_000, tid: 12, tgid: 10, comm: "cam", kind: .mmapEnter(fd: 5))))
    #expect(KernelDeviceTraceParser.parse(line: "# tracer: nop") == .skipped)
    #expect(
      KernelDeviceTraceParser.parse(line: "  sh-1 (1) [000] ...1. 1.0: sched_switch: prev_comm=sh prev_pid=1")
        == .skipped)
    #expect(
      KernelDeviceTraceParser.parse(line: "  sh-1 (1) [000] ...1. 1.0: sys_ioctl(fd: zz)") == .malformed)
  }

  @Test(
    "v4l2-ctl's phases from the VM's trace: its open of /dev/video0, REQBUFS → the last QUERYBUF, STREAMON, the first DQBUF's return; the driver's first buffer before it"
  )
  func phasesOfTheVMTrace() throws {
    let parsed = KernelDeviceTraceParser.parse(try Self.fixture("vivid-v4l2-ctl-trace.txt"))
    let result = KernelDevicePhases.phases(from: parsed.events, minor: 0, start: 0)
    #expect(result.owner?.pid == 174)
    #expect(result.owner?.comm == "v4l2-ctl")
    #expect(result.absent == nil)
    func ts(_ name: EventName, _ kind: PhaseEventKind) -> UInt64? {
      result.events.first { $0.name == name.rawValue && $0.kind == kind }?.ts
    }
    #expect(ts(.deviceOpen, .begin) == Self.ns("62.851355"))
    #expect(ts(.deviceOpen, .end) == Self.ns("62.851455"))
    // v4l2-ctl keeps the node's format: it sets none.
    #expect(ts(.deviceFormat, .begin) == nil)
    #expect(ts(.deviceBuffers, .begin) == Self.ns("62.955527"))
    #expect(ts(.deviceBuffers, .end) == Self.ns("62.974962"))
    #expect(ts(.deviceStreamOn, .begin) == Self.ns("63.050164"))
    #expect(ts(.deviceStreamOn, .end) == Self.ns("63.069077"))
    #expect(ts(.deviceFirstBuffer, .event) == Self.ns("63.786406"))
    #expect(result.driverFirstBuffer == Self.ns("63.484166"))
    #expect(result.events.allSatisfy { $0.fields["source"] == .string("kernel") && $0.pid == 174 })
    #expect(result.events.first?.fields["comm"] == .string("v4l2-ctl"))
    #expect(result.events.first?.fields["process"] == .string("v4l2-ctl"))
  }

  @Test(
    "a request passed as a negative int is printed sign-extended to 64 bits (PipeWire's daemon): the 32-bit request"
  )
  func signExtendedRequest() {
    let line =
      "        pipewire-348     (    344) [001] ...1.    56.453670: sys_ioctl(fd: 1c, cmd: ffffffffc0585611, arg: 7f31da164af0)"
    #expect(
      KernelDeviceTraceParser.parse(line: Substring(line))
        == .event(
          .init(
            ts: Self.ns("56.453670"), tid: 348, tgid: 344, comm: "pipewire",
            kind: .ioctlEnter(fd: 0x1c, request: 0xc058_5611))))
  }

  @Test(
    "a PipeWire daemon streams the camera for its client: every device phase is the daemon's, the first buffer its data loop's"
  )
  func pipeWireDaemon() throws {
    let parsed = KernelDeviceTraceParser.parse(try Self.fixture("pipewire-daemon-trace.txt"))
    #expect(parsed.malformedLines == 0)
    let result = KernelDevicePhases.phases(from: parsed.events, minor: 1, start: 0, excluding: [319])
    #expect(result.absent == nil, "\(result.absent ?? "")")
    #expect(result.owner?.pid == 344 && result.owner?.comm == "pipewire")
    let names = Set(result.events.map(\.name))
    for phase in [
      "device.open", "device.format", "device.buffers", "device.stream_on", "device.first_buffer",
    ] {
      #expect(names.contains(phase), "\(phase) missing")
    }
    let first = try #require(result.events.first { $0.name == "device.first_buffer" })
    #expect(first.fields["tid"] == .int(348))
    #expect(first.ts == Self.ns("56.453717"))
    let streamOn = try #require(result.events.first { $0.name == "device.stream_on" && $0.kind == .begin })
    #expect(streamOn.ts == Self.ns("56.447301") && streamOn.fields["tid"] == .int(344))
    #expect(result.driverFirstBuffer != nil)
  }

  @Test("another node's buffers, an excluded process, or a start after the stream: no phases, and why")
  func nothingForOtherNodes() throws {
    let events = KernelDeviceTraceParser.parse(try Self.fixture("vivid-v4l2-ctl-trace.txt")).events
    for result in [
      KernelDevicePhases.phases(from: events, minor: 1, start: 0),
      KernelDevicePhases.phases(from: events, minor: 0, start: 0, excluding: [174]),
      KernelDevicePhases.phases(from: events, minor: 0, start: Self.ns("64.2")),
    ] {
      #expect(result.events.isEmpty)
      #expect(result.owner == nil)
      #expect(result.absent != nil)
    }
  }

  @Test(
    "a format negotiated in tries, probes of 0 buffers before the REQBUFS that grants, mmaps extending the buffers; a daemon's thread streams it"
  )
  func formatAndBuffers() {
    func line(_ t: String, _ tid: Int, _ body: String) -> String {
      "  pipewire-\(tid) (   500) [000] ...1. \(t): \(body)"
    }
    let text = [
      line("1.000", 501, "sys_openat(dfd: ffffff9c, filename: 7f, flags: 2, mode: 0)"),
      line("1.010", 501, "sys_openat -> 0x7"),
      line("1.020", 501, "sys_ioctl(fd: 7, cmd: 80685600, arg: 7f)"),
      line("1.021", 501, "sys_ioctl -> 0x0"),
      line("1.100", 501, "sys_ioctl(fd: 7, cmd: c0d05605, arg: 7f)"),
      line("1.110", 501, "sys_ioctl -> 0xffffffffffffffea"),
      line("1.120", 501, "sys_ioctl(fd: 7, cmd: c0d05605, arg: 7f)"),
      line("1.130", 501, "sys_ioctl -> 0x0"),
      line("1.200", 501, "sys_ioctl(fd: 7, cmd: c0145608, arg: 7f)"),
      line("1.210", 501, "sys_ioctl -> 0x0"),
      // GStreamer's probes: CREATE_BUFS of 0, and a QUERYBUF that fails (no buffers yet).
      line("1.220", 501, "sys_ioctl(fd: 7, cmd: c100565c, arg: 7f)"),
      line("1.230", 501, "sys_ioctl -> 0x0"),
      line("1.240", 501, "sys_ioctl(fd: 7, cmd: c0585609, arg: 7f)"),
      line("1.250", 501, "sys_ioctl -> 0xffffffffffffffea"),
      line("1.300", 502, "sys_ioctl(fd: 7, cmd: c0145608, arg: 7f)"),
      line("1.310", 502, "sys_ioctl -> 0x0"),
      line("1.320", 502, "sys_ioctl(fd: 7, cmd: c0585609, arg: 7f)"),
      line("1.330", 502, "sys_ioctl -> 0x0"),
      line("1.340", 502, "sys_mmap(addr: 0, len: 96000, prot: 3, flags: 1, fd: 7, off: 0)"),
      line("1.350", 502, "sys_mmap -> 0x7f0000"),
      line("1.360", 502, "sys_ioctl(fd: 7, cmd: c058560f, arg: 7f)"),
      line("1.370", 502, "sys_ioctl -> 0x0"),
      line("1.400", 502, "sys_ioctl(fd: 7, cmd: 40045612, arg: 7f)"),
      line("1.450", 502, "sys_ioctl -> 0x0"),
      "  vivid-000-vid-c-90 (   90) [001] ..... 1.600: vb2_buf_done: owner = (____ptrval____), queued = 4, owned_by_drv = 3, index = 0, type = 1, bytesused = 460800, timestamp = 0",
      line("1.610", 503, "sys_ioctl(fd: 7, cmd: c0585611, arg: 7f)"),
      line(
        "1.611", 503,
        "v4l2_dqbuf: minor = 0, index = 0, type = VIDEO_CAPTURE, bytesused = 460800, flags = MAPPED, field = NONE, timestamp = 1, timecode = { type = 0x0, flags = , frames = 0, seconds = 0, minutes = 0, hours = 0, userbits = { 0 0 0 0 } }, sequence = 0"
      ),
      line("1.612", 503, "sys_ioctl -> 0x0"),
    ].joined(separator: "\n")
    let result = KernelDevicePhases.phases(
      from: KernelDeviceTraceParser.parse(text).events, minor: 0, start: 0)
    func ts(_ name: EventName, _ kind: PhaseEventKind) -> UInt64? {
      result.events.first { $0.name == name.rawValue && $0.kind == kind }?.ts
    }
    #expect(result.owner?.pid == 500)
    #expect(ts(.deviceOpen, .begin) == 1_000_000_000)
    #expect(ts(.deviceFormat, .begin) == 1_100_000_000)
    #expect(ts(.deviceFormat, .end) == 1_130_000_000)
    #expect(ts(.deviceBuffers, .begin) == 1_300_000_000)
    #expect(ts(.deviceBuffers, .end) == 1_350_000_000)
    #expect(ts(.deviceStreamOn, .end) == 1_450_000_000)
    #expect(ts(.deviceFirstBuffer, .event) == 1_612_000_000)
    #expect(result.driverFirstBuffer == 1_600_000_000)
    #expect(
      result.events.first { $0.name == EventName.deviceFirstBuffer.rawValue }?.fields["tid"] == .int(503))
  }
}
