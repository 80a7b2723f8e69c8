import BenchKit
import Foundation
import LaunchContract
import PhaseTrace
import RunAnalysis
import TestSupport
import TestThreads
import Testing

/// The preload library against a stand-in device: a regular file under
/// `FIRSTFRAME_PRELOAD_DEVICE_PREFIX`, answered by the fake V4L2 driver
/// (`libfirstframe-fake-v4l2.so`, preloaded after the library), so it runs unprivileged on a
/// kernel without V4L2. The client (`firstframe-v4l2-client`) drives it like a camera app:
/// open → S_FMT → S_PARM → REQBUFS → QUERYBUF+mmap → QBUF → STREAMON → DQBUF.
@Suite(.blocking, PreloadHarness.timeLimit) struct PreloadLibraryTests {
  @Test(
    "the library, the fake driver and the client are built next to the test bundle; elsewhere is a clear error"
  )
  func located() throws {
    for file in [PreloadLibrary.fileName, PreloadLibrary.fakeDriverFileName, PreloadLibrary.clientFileName] {
      let path = try PreloadLibrary.locate(file)
      #expect(path.hasSuffix("/\(PreloadLibrary.resourceFolderName)/\(file)"))
      #expect(access(path, R_OK) == 0)
    }
    let empty = temporaryFolder("preload-missing")
    defer { try? FileManager.default.removeItem(atPath: empty) }
    let error = #expect(throws: PreloadLibraryError.self) { try PreloadLibrary.locate(nextTo: empty) }
    #expect(error?.description.contains("swift build") == true)
    #expect(error?.description.contains(empty) == true)
  }

  @Test(
    "LD_PRELOAD names the library first and keeps what the environment preloaded; FIRSTFRAME_TRACE is set")
  func environmentRecipe() {
    let base = ["LD_PRELOAD": "/opt/a.so /opt/b.so", "PATH": "/usr/bin"]
    let environment = PreloadLibrary.environment(
      base, library: "/x/libfirstframe-preload.so", trace: .descriptor(3))
    #expect(environment["LD_PRELOAD"] == "/x/libfirstframe-preload.so:/opt/a.so:/opt/b.so")
    #expect(environment["FIRSTFRAME_TRACE"] == "fd:3")
    #expect(environment["PATH"] == "/usr/bin")
    let fresh = PreloadLibrary.environment([:], library: "/x/l.so", trace: .path("/tmp/t"))
    #expect(fresh["LD_PRELOAD"] == "/x/l.so" && fresh["FIRSTFRAME_TRACE"] == "/tmp/t")
  }

  @Test(
    "each way into the device writes app.main and every device phase once, in order, in the protocol's exact shape",
    arguments: PreloadHarness.apis)
  func phasesInOrder(api: String) throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let run = try harness.run(["--api", api, "--frames", "3"], preload: true)
    #expect(run.status == 0, "client failed: \(run.errors)")
    #expect(run.trace.malformedLines == 0, "\(run.trace.problems)")
    #expect(PreloadHarness.sequence(run.events) == PreloadHarness.captureSequence)
    #expect(zip(run.events, run.events.dropFirst()).allSatisfy { $0.ts <= $1.ts }, "timestamps in order")

    // The encoder's exact shape: the keys in its order, fields sorted, no spaces.
    let shape = try Regex(
      #"^\{"ts":\d+,"name":"[a-z_.]+","kind":"(begin|end|event)","pid":\d+,"fields":\{"[a-z]+":.*\}\}$"#)
    for line in run.traceText.split(separator: "\n") {
      #expect(try shape.wholeMatch(in: String(line)) != nil, "line not in the protocol's shape: \(line)")
      let event = try #require(run.events.first { TraceLineEncoder.encode($0) == line })
      #expect(event.fields["source"] == .string(PreloadLibrary.eventSource))
    }
    let expectedAPI = PreloadHarness.apiField(forClientAPI: api)
    for event in run.events where event.name.hasPrefix("device.") {
      #expect(event.fields["device"] == .string(harness.device))
      #expect(
        event.fields["api"] == .string(expectedAPI), "\(event.name) seen through \(event.fields["api"]!)")
    }
    let buffers = run.events.first { $0.name == EventName.deviceBuffers.rawValue && $0.kind == .begin }
    #expect(buffers?.fields["count"] == .int(4))
    #expect(run.events.first?.fields["exe"] == .string(harness.client))
    #expect(Set(run.events.map(\.pid)).count == 1)

    // Every event name is the contract's, and PhaseExtractor finds the five device phases.
    #expect(run.events.allSatisfy { EventName(rawValue: $0.name) != nil && $0.owner == .app })
    let phases = PhaseExtractor.phases(from: run.events, start: run.events[0].ts, relock: false)
    for phase in PhaseName.device { #expect(phases[phase] != nil, "\(phase) missing from \(phases)") }
  }

  @Test(
    "every call returns the same value and errno with the library as without it, failures included",
    arguments: PreloadHarness.apis)
  func returnValuesUnchanged(api: String) throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let arguments = ["--api", api, "--log", "--check-errors", "--frames", "3"]
    let without = try harness.run(arguments, preload: false)
    let with = try harness.run(arguments, preload: true)
    #expect(without.status == 0 && with.status == 0, "\(without.errors) \(with.errors)")
    #expect(with.log == without.log)
    // The log holds the failures the library must pass through untouched, and the descriptor
    // numbers the app is given (the library keeps its own trace descriptor out of their way).
    for expected in [
      "open ret=3 errno=0", "open-missing ret=-1 errno=2", "querycap-devnull ret=-1 errno=25",
      "close-bad ret=-1 errno=9", "dqbuf-before-streamon ret=-1 errno=22", "s_fmt-refused ret=-1 errno=22",
      "mmap-bad-offset ret=-1 errno=22", "dqbuf-first ret=-1 errno=11", "dqbuf-first ret=0 errno=0",
    ] {
      #expect(with.log.contains(expected), "\(expected) missing from the log")
    }
    #expect(PreloadHarness.sequence(with.events) == PreloadHarness.captureSequence)
  }

  @Test(
    "an app that switches the stream on through a dup'd copy of its descriptor (GStreamer's v4l2src) has every device phase, and its calls return the same"
  )
  func streamOnThroughACopy() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let arguments = ["--api", "ioctl", "--dup", "--log", "--frames", "3"]
    let without = try harness.run(arguments, preload: false)
    let with = try harness.run(arguments, preload: true)
    #expect(without.status == 0 && with.status == 0, "\(without.errors) \(with.errors)")
    #expect(with.log == without.log)
    #expect(with.log.contains("streamon ret=0 errno=0") && with.log.contains("close-copy ret=0 errno=0"))
    #expect(PreloadHarness.sequence(with.events) == PreloadHarness.captureSequence)
    let phases = PhaseExtractor.phases(from: with.events, start: with.events[0].ts, relock: false)
    for phase in PhaseName.device { #expect(phases[phase] != nil, "\(phase) missing from \(phases)") }
  }

  @Test("a trace that cannot be written (/dev/full: every write fails) changes no return value or errno")
  func fullDisk() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let arguments = ["--log", "--check-errors"]
    let without = try harness.run(arguments, preload: false)
    let with = try harness.run(arguments, preload: true, trace: "/dev/full")
    #expect(without.status == 0 && with.status == 0)
    #expect(with.log == without.log)
  }

  @Test(
    "calls that really fail (no driver: the file answers ENOTTY) fail the same way; only the attempts are traced"
  )
  func realFailures() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let without = try harness.run(["--log"], preload: false, fake: false)
    let with = try harness.run(["--log"], preload: true, fake: false)
    #expect(without.status == 1 && with.status == 1)
    #expect(with.log == without.log)
    #expect(with.log.last == "s_fmt ret=-1 errno=25")
    #expect(with.errors == without.errors)
    // The open succeeded; the refused S_FMT is still format negotiation; nothing later happened.
    #expect(
      PreloadHarness.sequence(with.events) == [
        "app.main event", "device.open begin", "device.open end", "device.format begin", "device.format end",
      ])
  }

  @Test("without FIRSTFRAME_TRACE the library writes nothing and changes nothing")
  func silentWithoutTrace() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let without = try harness.run(["--log", "--check-errors"], preload: false, trace: .some(nil))
    let with = try harness.run(["--log", "--check-errors"], preload: true, trace: .some(nil))
    #expect(with.status == 0 && with.log == without.log)
    let files = try FileManager.default.contentsOfDirectory(atPath: harness.folder)
    #expect(!files.contains { $0.hasPrefix("trace-") })
  }

  @Test(
    "FIRSTFRAME_TRACE=fd:N appends to the inherited descriptor, keeping its copy out of the app's numbers")
  func inheritedDescriptor() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let without = try harness.run(["--log", "--check-errors"], preload: false, trace: .some(nil))
    // The trace goes to the client's stderr.
    let with = try harness.run(["--log", "--check-errors"], preload: true, trace: "fd:2")
    #expect(with.status == 0 && with.log == without.log)
    let trace = TraceReader().parse(text: with.errors)
    #expect(
      trace.malformedLines == 0 && PreloadHarness.sequence(trace.events) == PreloadHarness.captureSequence)
  }

  @Test("eight threads streaming eight descriptors at once: every line whole, every phase once per thread")
  func threads() throws {
    let harness = try PreloadHarness()
    defer { harness.removeFolder() }
    let run = try harness.run(["--threads", "8", "--frames", "5"], preload: true)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.trace.malformedLines == 0, "\(run.trace.problems)")
    var counts: [String: Int] = [:]
    for step in PreloadHarness.sequence(run.events) { counts[step, default: 0] += 1 }
    for step in PreloadHarness.captureSequence.dropFirst() {
      #expect(counts[step] == 8, "\(step): \(counts[step] ?? 0)")
    }
    #expect(counts["app.main event"] == 1)
  }
}
