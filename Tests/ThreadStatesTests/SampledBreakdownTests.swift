import ResultsSchema
import Testing

@testable import ThreadStates

@Suite struct SampledBreakdownTests {
  /// `/proc/PID/task/TID/stat` for a thread whose comm holds spaces and parentheses: fields 3…52,
  /// with minflt (10) 1234, majflt (12) 7 and delayacct_blkio_ticks (42) 3.
  static func stat(state: String = "D") -> String {
    var fields = (3...52).map { _ in "0" }
    fields[0] = state
    fields[10 - 3] = "1234"
    fields[12 - 3] = "7"
    fields[42 - 3] = "3"
    return "500 (my (app) x) " + fields.joined(separator: " ") + "\n"
  }

  @Test("a thread's schedstat, stat and status are read: times, state, name, faults, blkio ticks, switches")
  func parsesProc() throws {
    let status = "Name:\tx\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n"
    let sample = try #require(
      ProcThreadSample(schedstat: "123456 7890 5\n", stat: Self.stat(), status: status))
    #expect(sample.runNs == 123_456)
    #expect(sample.waitNs == 7890)
    #expect(sample.state == "D")
    #expect(sample.name == "my (app) x")
    #expect(sample.minorFaults == 1234)
    #expect(sample.majorFaults == 7)
    #expect(sample.blkioTicks == 3)
    #expect(sample.voluntarySwitches == 12)
    #expect(sample.involuntarySwitches == 3)
    #expect(ProcThreadSample(schedstat: "12", stat: Self.stat(), status: status) == nil)
    #expect(ProcThreadSample(schedstat: "1 2 3", stat: "500 (x) S 1", status: status) == nil)
  }

  static func ms(_ value: Double) -> UInt64 { TraceText.ns(value) }

  /// Samples at 0, 20, 50 and 100 ms: the main thread (500) runs 10, 15 and 15 ms between them,
  /// waits for a CPU 2 and 3 ms, blocks one tick; a thread (501) shows up at 50 ms with 4 ms of
  /// CPU and 2 major faults and is gone (ended) by 100 ms.
  static let samples: [ProcSample] = [
    ProcSample(ts: 0, threads: [500: .init(runNs: 0, waitNs: 0)]),
    ProcSample(ts: ms(20), threads: [500: .init(runNs: ms(10), waitNs: ms(2), minorFaults: 100)]),
    ProcSample(
      ts: ms(50),
      threads: [
        500: .init(runNs: ms(25), waitNs: ms(5), minorFaults: 150, blkioTicks: 1, voluntarySwitches: 4),
        501: .init(runNs: ms(4), waitNs: 0, majorFaults: 2, involuntarySwitches: 1),
      ]),
    ProcSample(
      ts: ms(100), threads: [500: .init(runNs: ms(40), waitNs: ms(5), minorFaults: 150, blkioTicks: 1)]),
  ]

  @Test("per phase: the main thread's run, wait and blkio gains, sleeping the rest; the tree's sums")
  func phaseOnSamples() throws {
    let record = ThreadStatesBreakdown.sampled(
      samples: Self.samples, root: 500,
      phases: ["first_frame_observed": PhaseInterval(start: 0, end: Self.ms(50))])
    let main = try #require(record.main["first_frame_observed"])
    #expect(main == .init(running: 25, runnable: 5, io: 10, sleeping: 10))
    let tree = try #require(record.tree["first_frame_observed"])
    #expect(tree.cpuMs == 29)
    #expect(tree.majorFaults == 2)
    #expect(tree.minorFaults == 150)
    #expect(tree.voluntarySwitches == 4)
    #expect(tree.involuntarySwitches == 1)
    #expect(record.method == "sampled")
    #expect(record.errorBoundMs == 0)
    #expect(!record.incomplete)
    #expect(record.events == 4)
  }

  @Test("a boundary between samples is interpolated, and the gap it fell in is the error bound")
  func interpolated() throws {
    let record = ThreadStatesBreakdown.sampled(
      samples: Self.samples, root: 500,
      phases: ["start_running": PhaseInterval(start: Self.ms(10), end: Self.ms(75))])
    #expect(try #require(record.main["start_running"]).running == 27.5)
    #expect(record.errorBoundMs == 50)
  }

  @Test("an ended thread keeps what it did: the tree's CPU time never falls when it leaves the samples")
  func endedThreadCarried() throws {
    let record = ThreadStatesBreakdown.sampled(
      samples: Self.samples, root: 500, phases: ["late": PhaseInterval(start: Self.ms(50), end: Self.ms(100))]
    )
    #expect(try #require(record.tree["late"]).cpuMs == 15)
  }

  @Test("a phase that ends after the last sample cannot be bounded: the record is incomplete")
  func outsideSamples() {
    let record = ThreadStatesBreakdown.sampled(
      samples: Self.samples, root: 500, phases: ["long": PhaseInterval(start: 0, end: Self.ms(120))])
    #expect(record.incomplete)
  }

  @Test("the exact record takes the tree's faults from the samples")
  func exactFaults() throws {
    let timeline = SchedTimeline(events: SchedTraceParser.parse(SchedTimelineTests.trace).events, root: 500)
    let record = ThreadStatesBreakdown.exact(
      timeline: timeline, phases: ["p": PhaseInterval(start: 0, end: Self.ms(50))], samples: Self.samples,
      events: 14, totals: .init(lostEvents: 0, traceBytes: 1), firstFrame: nil)
    #expect(try #require(record.tree["p"]).minorFaults == 150)
    #expect(try #require(record.tree["p"]).majorFaults == 2)
  }
}
