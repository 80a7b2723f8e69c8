import PhaseTrace
import RunAnalysis
import Testing

extension PhaseExtractorTests {
  /// camera-app under the preload library: its own `device.*` spans (libv4l2 loaded, open,
  /// QUERYCAP, ENUM_FMT) around the library's (the `open` call alone), on one trace.
  func interleavedInstruments() -> [PhaseEvent] {
    let preload: [String: PhaseFieldValue] = ["source": "preload"]
    return [
      ev(0, "launch.spawn"), ev(1, "app.main", .event, preload), ev(2, "app.main"),
      ev(10, "device.open", .begin), ev(30, "device.open", .begin, preload),
      ev(31, "device.open", .end, preload), ev(40, "device.open", .end),
      ev(41, "device.format", .begin), ev(42, "device.format", .begin, preload),
      ev(45, "device.format", .end, preload), ev(46, "device.format", .end),
      ev(50, "device.buffers", .begin, preload), ev(52, "device.buffers", .end, preload),
      ev(49, "device.buffers", .begin), ev(53, "device.buffers", .end),
      ev(60, "device.stream_on", .begin), ev(61, "device.stream_on", .begin, preload),
      ev(62, "device.stream_on", .end, preload), ev(64, "device.stream_on", .end),
      ev(70, "device.first_buffer", .event, preload), ev(71, "device.first_buffer"),
    ]
  }

  @Test(
    "with deviceSource preload, the device phases come from the preload library's events only, not the app's own spans around them"
  )
  func preloadInstrumentOnly() {
    let events = interleavedInstruments()
    let p = PhaseExtractor.phases(
      from: events.shuffled(), start: events[0].ts, relock: false, deviceSource: "preload")
    func near(_ phase: String, _ ms: Double) -> Bool { abs((p[phase] ?? -1) - ms) < 1e-6 }
    #expect(near("device_open", 1), "\(p)")
    #expect(near("device_format", 3), "\(p)")
    #expect(near("device_buffers", 2), "\(p)")
    #expect(near("device_stream_on", 1), "\(p)")
    #expect(near("device_first_buffer", 8), "\(p)")
    #expect(near("process_launch", 1), "\(p)")
  }

  @Test("without deviceSource the app's own spans measure the device phases, as camera-app's trace has them")
  func ownTraceWithoutSource() {
    // Only camera-app's own events: what its trace alone says (the second row of the peers table).
    let own = interleavedInstruments().filter { $0.fields["source"] == nil }
    let p = PhaseExtractor.phases(from: own, start: own[0].ts, relock: false)
    func near(_ phase: String, _ ms: Double) -> Bool { abs((p[phase] ?? -1) - ms) < 1e-6 }
    #expect(near("device_open", 30), "\(p)")
    #expect(near("device_first_buffer", 7), "\(p)")
  }

  @Test(
    "with a device priority, each device phase comes from the first source that has it (the kernel's, then the preload library's), and says which"
  )
  func kernelFirstThenPreload() {
    let kernel: [String: PhaseFieldValue] = ["source": "kernel"]
    // The kernel saw the open and the stream-on only (say its trace began late): the rest falls back.
    let events =
      interleavedInstruments() + [
        ev(29, "device.open", .begin, kernel), ev(32, "device.open", .end, kernel),
        ev(61, "device.stream_on", .begin, kernel), ev(63, "device.stream_on", .end, kernel),
      ]
    let (intervals, sources) = PhaseExtractor.intervals(
      from: events.shuffled(), start: events[0].ts, relock: false, devicePriority: ["kernel", "preload"])
    func ms(_ phase: String) -> Double? { intervals[phase].map { Double($0.end - $0.start) / 1e6 } }
    #expect(ms("device_open") == 3)
    #expect(sources["device_open"] == "kernel")
    #expect(ms("device_stream_on") == 2)
    #expect(ms("device_format") == 3)
    #expect(sources["device_format"] == "preload")
    // The first buffer counts from the kernel's stream-on end (the phase is the kernel's only
    // when the kernel saw the buffer too): here the preload library's whole phase.
    #expect(sources["device_first_buffer"] == "preload")
    #expect(ms("device_first_buffer") == 8)
    #expect(ms("process_launch") == 1)
  }

  @Test("the app's own device events are the source `app`: they carry no source field")
  func appSource() {
    let events = interleavedInstruments()
    let (intervals, sources) = PhaseExtractor.intervals(
      from: events, start: events[0].ts, relock: false, devicePriority: ["kernel", "app"])
    #expect(sources["device_open"] == "app")
    #expect(intervals["device_open"].map { $0.end - $0.start } == 30_000_000)
  }

  @Test(
    "a device event in the app's trace that claims the kernel as its source is a forgery: ignored and counted"
  )
  func kernelSourceForged() {
    let split = TrustBoundary.split(appTrace: [
      ev(1, "device.open", .begin, ["source": "kernel"]), ev(2, "device.open", .begin, ["source": "preload"]),
      ev(3, "device.open", .begin),
    ])
    #expect(split.forged.count == 1)
    #expect(split.trusted.count == 2)
  }
}
