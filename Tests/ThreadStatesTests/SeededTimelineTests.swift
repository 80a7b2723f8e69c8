import ResultsSchema
import Testing

@testable import ThreadStates

/// A relock run's trace, written by hand: the app (700, with threads 701 and 702) already runs
/// when tracing starts at 0, so no fork is seen; `/proc` seeds the tree at 1 ms. The main thread
/// is on a CPU at the start (its first event switches it out), 701 sleeps (its first event wakes
/// it), 702 waits for a CPU (its first event switches it in), 703 is blocked on I/O (`D`, woken
/// later) and 704 sleeps throughout with no event at all.
@Suite struct SeededTimelineTests {
  static let trace = [
    TraceText.switchOut(10, cpu: 1, prev: 0, "swapper/1", state: "R", next: 702, "app-worker"),
    TraceText.switchOut(20, prev: 700, state: "S", next: 0, "swapper/0"),
    TraceText.wakeup(30, tid: 701, "app-session"),
    TraceText.switchOut(32, prev: 0, "swapper/0", state: "R", next: 701, "app-session"),
    TraceText.switchOut(40, prev: 701, "app-session", state: "S", next: 0, "swapper/0", tgid: 700),
    TraceText.wakeup(45, tid: 703, "app-io"),
    TraceText.switchOut(46, prev: 0, "swapper/0", state: "R", next: 703, "app-io"),
    TraceText.switchOut(47, prev: 703, "app-io", state: "S", next: 0, "swapper/0", tgid: 700),
    TraceText.switchOut(50, cpu: 1, prev: 702, "app-worker", state: "S", next: 0, "swapper/1", tgid: 700),
    TraceText.wakeup(70, tid: 700),
    TraceText.switchOut(72, prev: 0, "swapper/0", state: "R", next: 700, "app"),
  ].joined(separator: "\n")

  /// The tree as `/proc/PID/task/TID/stat` gave it at the seed (1 ms): the state letters a
  /// thread had then (702's `R` is on a run queue, not on a CPU).
  static let seed = ProcSample(
    ts: TraceText.ns(1),
    threads: [
      700: ProcThreadSample(runNs: 0, waitNs: 0, state: "R", name: "app"),
      701: ProcThreadSample(runNs: 0, waitNs: 0, state: "S", name: "app-session"),
      702: ProcThreadSample(runNs: 0, waitNs: 0, state: "R", name: "app-worker"),
      703: ProcThreadSample(runNs: 0, waitNs: 0, state: "D", name: "app-io"),
      704: ProcThreadSample(runNs: 0, waitNs: 0, state: "S", name: "app-idle"),
    ])

  /// The relock phases start at the unlock (5 ms), after the seed.
  static let phases = [
    "ui_ready": PhaseInterval(start: TraceText.ns(5), end: TraceText.ns(60)),
    "first_frame_observed": PhaseInterval(start: TraceText.ns(5), end: TraceText.ns(90)),
  ]

  static func timeline() -> SchedTimeline {
    SchedTimeline(events: SchedTraceParser.parse(trace).events, root: 700, seed: seed)
  }

  static func record(samples: [ProcSample] = []) -> BenchResults.ThreadStatesRecord {
    ThreadStatesBreakdown.exact(
      timeline: timeline(), phases: phases, samples: samples, events: 11,
      totals: .init(lostEvents: 0, traceBytes: 1000), firstFrame: nil)
  }

  @Test(
    "each seeded thread's state at the trace's start: running, sleeping, runnable, io, and /proc's without events"
  )
  func initialStates() throws {
    let threads = Self.timeline().threads
    #expect(threads[700]?.segments.first == .init(start: 0, state: .running))
    #expect(threads[701]?.segments.first == .init(start: 0, state: .sleeping))
    #expect(threads[702]?.segments.first == .init(start: 0, state: .runnable))
    #expect(threads[703]?.segments.first == .init(start: 0, state: .io))
    #expect(threads[704]?.segments == [.init(start: 0, state: .sleeping)])
    #expect(threads[704]?.name == "app-idle")
  }

  @Test("a seeded main thread's states per phase, which sum to each phase's duration")
  func mainSums() throws {
    let record = Self.record()
    let ui = try #require(record.main["ui_ready"])
    #expect(ui == .init(running: 15, runnable: 0, io: 0, sleeping: 40))
    let observed = try #require(record.main["first_frame_observed"])
    #expect(observed == .init(running: 33, runnable: 2, io: 0, sleeping: 50))
    for (phase, interval) in Self.phases {
      #expect(abs(record.main[phase]!.total - Double(interval.nanoseconds) / 1e6) < 0.001, "\(phase)")
    }
  }

  @Test("the seeded tree's times from the window's start; a seeded root makes the record complete")
  func tree() throws {
    let record = Self.record()
    #expect(!record.incomplete)
    let ui = try #require(record.tree["ui_ready"])
    // Running: 700 5–20, 701 32–40, 702 10–50, 703 46–47; runnable: 701 30–32, 702 5–10,
    // 703 45–46; io: 703 5–45.
    #expect(ui.cpuMs == 64)
    #expect(ui.runqueueMs == 8)
    #expect(ui.ioMs == 40)
    #expect(ui.voluntarySwitches == 4)
  }

  @Test("the tree's faults are what it gained after the seed, not its totals since its birth")
  func faultsFromTheSeed() throws {
    var seed = Self.seed
    seed.threads[700]!.minorFaults = 40_000
    seed.threads[700]!.majorFaults = 300
    var later = seed
    later.ts = TraceText.ns(95)
    later.threads[700]!.minorFaults = 40_090
    later.threads[701]!.minorFaults = 10
    let observed = try #require(Self.record(samples: [seed, later]).tree["first_frame_observed"])
    #expect(observed.majorFaults == 0)
    #expect(observed.minorFaults > 0 && observed.minorFaults <= 100, "\(observed)")
  }

  @Test("without a seed the same trace has no tree and is incomplete: the trace did not see it made")
  func unseeded() {
    let timeline = SchedTimeline(events: SchedTraceParser.parse(Self.trace).events, root: 700)
    #expect(Set(timeline.threads.keys) == [700])
    let record = ThreadStatesBreakdown.exact(
      timeline: timeline, phases: Self.phases, samples: [], events: 11,
      totals: .init(lostEvents: 0, traceBytes: 1000), firstFrame: nil)
    #expect(record.incomplete)
  }

  @Test("a thread's first event decides its state at the start; /proc's letter only when it has none")
  func inference() {
    #expect(SchedTimeline.initialState(letter: "S", first: nil) == .sleeping)
    #expect(SchedTimeline.initialState(letter: "D", first: nil) == .io)
    #expect(SchedTimeline.initialState(letter: "R", first: nil) == .running)
    #expect(SchedTimeline.initialState(letter: "I", first: nil) == .sleeping)
    #expect(SchedTimeline.initialState(letter: "R", first: .wokenUp) == .sleeping)
    #expect(SchedTimeline.initialState(letter: "D", first: .wokenUp) == .io)
    #expect(SchedTimeline.initialState(letter: "S", first: .switchedOut) == .running)
    #expect(SchedTimeline.initialState(letter: "S", first: .recorded) == .running)
    #expect(SchedTimeline.initialState(letter: "S", first: .switchedIn) == .runnable)
  }
}
