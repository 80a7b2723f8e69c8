#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing
import Subprocess
import ThreadStates
import ThreadTracing

/// Bench's tracefs instance: what it records, each run alone, only bench's tree, and the next
/// bench removing a dead one's (that a killed bench leaves none is TracefsKilledBenchTests, in
/// BenchKitTests). Needs root and tracefs; skipped otherwise, with the reason.
@Suite(
  .blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: TracefsAvailability.reason == nil, Comment(rawValue: TracefsAvailability.reason ?? "")))
struct TracefsSessionTests {
  static let instances = TracefsSession.defaultRoot + "/instances/"

  @Test("a session records a spawned child's fork and switches on the mono clock, and close removes it")
  func records() throws {
    // An instance name no bench uses: a pid above the kernel's pid_max (4194304).
    let session = try TracefsSession.open(pid: 2_000_000_001)
    var closed = false
    defer { if !closed { session.close() } }
    #expect(FileManager.default.fileExists(atPath: session.path))
    #expect(FileSystem.readText(atPath: session.path + "/trace_clock")?.contains("[mono]") == true)
    try session.begin()
    let before = MonotonicClock.now()
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "cat /proc/self/stat > /dev/null"], environment: [:])
    _ = child.wait(timeout: 30)
    let capture = session.end()
    let parsed = SchedTraceParser.parse(capture.text)
    let timeline = SchedTimeline(events: parsed.events, root: Int(child.pid))
    #expect(timeline.rootForkSeen, "no fork of \(child.pid) in \(parsed.events.count) events")
    let main = try #require(timeline.main)
    #expect(try #require(main.born) >= before, "the trace's clock is not CLOCK_MONOTONIC")
    #expect(main.switches.count >= 1)
    #expect(capture.bytes > 0)
    // The companion, on a kernel with sched_stat_runtime: the child's CPU time, the same tasks.
    if FileManager.default.fileExists(atPath: TracefsSession.defaultRoot + "/events/sched/sched_stat_runtime")
    {
      let companion = try #require(session.runtimePath)
      #expect(FileManager.default.fileExists(atPath: companion))
      let runtimes = SchedTraceParser.parse(capture.runtimeText).events.filter {
        if case .runtime(let tid, _) = $0.kind { return tid == Int(child.pid) }
        return false
      }
      #expect(!runtimes.isEmpty, "no sched_stat_runtime of \(child.pid): \(capture.runtimeText.prefix(2000))")
      #expect(capture.runtimeLostEvents == 0)
    }
    session.close()
    closed = true
    #expect(!FileManager.default.fileExists(atPath: session.path))
    #expect(session.runtimePath.map { FileManager.default.fileExists(atPath: $0) } != true)
  }

  @Test(
    "each run's trace holds only that run: the buffers are emptied after a run is read, and at a begin no end followed"
  )
  func eachRunAlone() throws {
    let session = try TracefsSession.open(pid: 2_000_000_003)
    defer { session.close() }
    func spawnTrue() throws -> Int {
      let child = try ChildProcess.spawn(argv: ["/bin/true"], environment: [:])
      _ = child.wait(timeout: 30)
      return Int(child.pid)
    }
    func forked(_ capture: TracefsSession.Capture) -> Set<Int> {
      Set(
        SchedTraceParser.parse(capture.text).events.compactMap { event -> Int? in
          if case .processFork(_, let child, _) = event.kind { return child }
          return nil
        })
    }
    try session.begin()
    let first = try spawnTrue()
    #expect(forked(session.end()).contains(first))
    try session.begin()
    let second = try spawnTrue()
    let capture = session.end()
    #expect(forked(capture).contains(second))
    #expect(!forked(capture).contains(first), "the first run's fork is in the second run's trace")
    // A run that never ended (its begin, then another begin).
    try session.begin()
    let abandoned = try spawnTrue()
    try session.begin()
    let third = try spawnTrue()
    let after = forked(session.end())
    #expect(after.contains(third))
    #expect(!after.contains(abandoned), "a run that did not end leaked into the next run's trace")
  }

  @Test("the trace keeps bench's threads and what they start, not the rest of the machine's events")
  func onlyBenchsTree() throws {
    // Started before the session: a process bench did not start while tracing, forking all the time.
    let other = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "while :; do /bin/true; done"], environment: [:])
    defer { other.terminate(grace: 0) }
    let session = try TracefsSession.open(pid: 2_000_000_002)
    defer { session.close() }
    try session.begin()
    let child = try ChildProcess.spawn(
      argv: ["/bin/sh", "-c", "/bin/true; /bin/true; /bin/true"], environment: [:])
    _ = child.wait(timeout: 30)
    let capture = session.end()
    let forks = SchedTraceParser.parse(capture.text).events.compactMap { event -> (Int, Int)? in
      if case .processFork(let parent, let child, _) = event.kind { return (parent, child) }
      return nil
    }
    #expect(forks.contains { $0.1 == Int(child.pid) }, "bench's own fork of its child is traced")
    #expect(forks.contains { $0.0 == Int(child.pid) }, "the child's forks are traced (followed through fork)")
    #expect(
      !forks.contains { $0.0 == Int(other.pid) },
      "the other process's \(forks.filter { $0.0 == Int(other.pid) }.count) forks are traced")
  }

  @Test("the next bench removes an instance whose bench is gone, and keeps a live bench's")
  func removesStale() throws {
    let dead = try ChildProcess.spawn(argv: ["/bin/true"], environment: [:])
    _ = dead.wait(timeout: 30)
    let stale = Self.instances + TracefsSession.instancePrefix + String(dead.pid)
    let live = Self.instances + TracefsSession.instancePrefix + String(getpid())
    let folders = [stale, stale + TracefsSession.runtimeSuffix, live, live + TracefsSession.runtimeSuffix]
    for folder in folders { try FileSystem.createDirectory(atPath: folder) }
    defer { for folder in folders { try? FileSystem.removeDirectory(atPath: folder) } }
    let removed = TracefsSession.removeStale()
    #expect(removed.contains(stale))
    #expect(removed.contains(stale + TracefsSession.runtimeSuffix))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(!FileManager.default.fileExists(atPath: stale + TracefsSession.runtimeSuffix))
    #expect(FileManager.default.fileExists(atPath: live))
    #expect(FileManager.default.fileExists(atPath: live + TracefsSession.runtimeSuffix))
  }
}
