import TestSupport
import Testing

@testable import ThreadStates

/// A bench in a pid namespace of its own knows its namespace's pids; tracefs records the
/// machine's (issue 41, item 2). These find the machine's ids of bench and of the app it spawned.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct NamespaceTaskTests {
  @Test("a marker line gives the writing thread's machine-wide tid and, with record-tgid, its process")
  func markerWithGroup() throws {
    let text = """
      # tracer: nop
                 bench-11022   (  11020) [001] ...1. 20988.177409: tracing_mark_write: firstframe-self 7f3a
                 bench-11022   (  11020) [001] ...1. 20988.177501: tracing_mark_write: firstframe-self 0000
      """
    let task = try #require(TraceMarker.writer(of: "firstframe-self 7f3a", in: text))
    #expect(task.tid == 11022)
    #expect(task.tgid == 11020)
  }

  @Test("a comm with spaces and dashes and no TGID column; a marker not in the text is nil")
  func markerWithoutGroup() throws {
    let text = "  my-bench x-4242  [000] ...1. 10.000001: tracing_mark_write: firstframe-self ab\n"
    let task = try #require(TraceMarker.writer(of: "firstframe-self ab", in: text))
    #expect(task.tid == 4242)
    #expect(task.tgid == nil)
    #expect(TraceMarker.writer(of: "firstframe-self cd", in: text) == nil)
    #expect(TraceMarker.writer(of: "firstframe-self a", in: text) == nil)
  }

  @Test(
    "the app is the first process the spawning thread forked that then ran a program, not a thread it made")
  func spawnedProcess() {
    let events = [
      SchedEvent(
        ts: 1, cpu: 0, tgid: 50, taskTid: 51, kind: .processFork(parent: 51, child: 60, childComm: "bench")),
      SchedEvent(
        ts: 2, cpu: 0, tgid: 50, taskTid: 52, kind: .processFork(parent: 52, child: 70, childComm: "bench")),
      SchedEvent(ts: 3, cpu: 1, tgid: 70, taskTid: 70, kind: .exec(tid: 70, filename: "/bin/other")),
      SchedEvent(
        ts: 4, cpu: 0, tgid: 50, taskTid: 51, kind: .processFork(parent: 51, child: 80, childComm: "bench")),
      SchedEvent(ts: 5, cpu: 1, tgid: 80, taskTid: 80, kind: .exec(tid: 80, filename: "/x/camera-app")),
    ]
    #expect(TraceMarker.spawnedProcess(by: 51, in: events) == 80)
    #expect(TraceMarker.spawnedProcess(by: 53, in: events) == nil)
  }
}
