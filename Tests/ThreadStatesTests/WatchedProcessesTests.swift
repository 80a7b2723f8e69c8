import ResultsSchema
import Testing

@testable import ThreadStates

/// Bench (pid 1: its main thread 1 and its compositor 2) spawns the app (500) at 10 ms; on CPU 1
/// the compositor, already runnable when the trace began, runs, is preempted by the display
/// server (300, already asleep: an X server or a Wayland compositor), runs again and sleeps.
/// Bench's and the display server's threads get figures of their own and stay out of the app's
/// tree.
@Suite struct WatchedProcessesTests {
  static let trace = [
    TraceText.switchOut(5, cpu: 1, prev: 0, "swapper/1", state: "R", next: 2, "compositor"),
    TraceText.fork(10, parent: 1, child: 500, "bench"),
    TraceText.wakeup(10.01, tid: 500, "bench", new: true),
    TraceText.switchOut(11, prev: 1, "bench", state: "S", next: 500, "app"),
    TraceText.wakeup(14, cpu: 1, tid: 300, "Xvfb", by: 2, byGroup: 1),
    TraceText.switchOut(15, cpu: 1, prev: 2, "compositor", state: "R+", next: 300, "Xvfb", tgid: 1),
    TraceText.switchOut(20, cpu: 1, prev: 300, "Xvfb", state: "S", next: 2, "compositor"),
    TraceText.switchOut(30, cpu: 1, prev: 2, "compositor", state: "S", next: 0, "swapper/1", tgid: 1),
    TraceText.switchOut(31, prev: 500, state: "S", next: 0, "swapper/0"),
  ].joined(separator: "\n")

  static let phases = [
    "process_launch": PhaseInterval(start: TraceText.ns(9.5), end: TraceText.ns(25)),
    "start_running": PhaseInterval(start: TraceText.ns(25), end: TraceText.ns(40)),
  ]

  static func record(watched: Bool) -> BenchResults.ThreadStatesRecord {
    let timeline = SchedTimeline(
      events: SchedTraceParser.parse(trace).events, root: 500, watched: watched ? [1, 300] : [])
    return ThreadStatesBreakdown.exact(
      timeline: timeline, phases: phases, samples: [], events: 9,
      totals: .init(lostEvents: 0, traceBytes: 900),
      firstFrame: nil, bench: watched ? WatchedProcess(pid: 1, samples: []) : nil,
      displayServer: watched ? WatchedProcess(pid: 300, samples: []) : nil)
  }

  @Test("bench's threads (its thread group) get per-phase CPU, run-queue wait and switches of their own")
  func benchThreads() throws {
    let bench = try #require(Self.record(watched: true).bench)
    // The compositor runs 9.5–15 and 20–25, bench's main thread 9.5–11; the compositor waits
    // for CPU 1 while the display server has it (15–20).
    let launch = try #require(bench["process_launch"])
    #expect(launch.cpuMs == 12)
    #expect(launch.runqueueMs == 5)
    #expect(launch.ioMs == 0)
    #expect(launch.involuntarySwitches == 1)
    #expect(launch.voluntarySwitches == 1)
    let start = try #require(bench["start_running"])
    #expect(start.cpuMs == 5)
    #expect(start.voluntarySwitches == 1)
    #expect(start.involuntarySwitches == 0)
  }

  @Test(
    "the display server's threads get theirs: runnable from its wakeup until it takes the CPU, then running")
  func displayServerThreads() throws {
    let x = try #require(Self.record(watched: true).displayServer)
    let launch = try #require(x["process_launch"])
    #expect(launch.cpuMs == 5)
    #expect(launch.runqueueMs == 1)
    #expect(launch.voluntarySwitches == 1)
    #expect(x["start_running"]?.cpuMs == 0)
  }

  @Test("neither bench's nor the display server's threads are in the app's tree, watched or not")
  func treeUnchanged() throws {
    let timeline = SchedTimeline(
      events: SchedTraceParser.parse(Self.trace).events, root: 500, watched: [1, 300])
    #expect(Set(timeline.threads.keys) == [500])
    #expect(Set(timeline.threads(ofProcess: 1).map(\.tid)) == [1, 2])
    #expect(Set(timeline.threads(ofProcess: 300).map(\.tid)) == [300])
    let watched = Self.record(watched: true)
    let plain = Self.record(watched: false)
    #expect(watched.tree == plain.tree)
    #expect(watched.tree["process_launch"]?.cpuMs == 14)
    #expect(plain.bench == nil)
    #expect(plain.displayServer == nil)
  }

  @Test("sampled: bench's and the display server's figures are their own samples' gains over each phase")
  func sampled() throws {
    func sample(_ ms: Double, _ runMs: UInt64, faults: UInt64) -> ProcSample {
      ProcSample(
        ts: TraceText.ns(ms),
        threads: [7: ProcThreadSample(runNs: runMs * 1_000_000, waitNs: 0, minorFaults: faults)])
    }
    let app = [ProcSample(ts: TraceText.ns(9), threads: [:]), ProcSample(ts: TraceText.ns(41), threads: [:])]
    let bench = WatchedProcess(pid: 1, samples: [sample(9, 100, faults: 10), sample(41, 132, faults: 42)])
    let record = ThreadStatesBreakdown.sampled(
      samples: app, root: 500,
      phases: ["start_running": PhaseInterval(start: TraceText.ns(25), end: TraceText.ns(41))], bench: bench)
    let start = try #require(record.bench?["start_running"])
    #expect(start.cpuMs == 16)
    #expect(start.minorFaults == 16)
    #expect(record.displayServer == nil)
  }
}
