#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import ResultsSchema
import SystemCalls
import TestSupport
import Testing
import Subprocess
import ThreadStates

@testable import BenchKit

/// Bench's tracefs instance: what it records, and that it never outlives bench. Needs root and
/// tracefs; skipped otherwise, with the reason.
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
    session.close()
    closed = true
    #expect(!FileManager.default.fileExists(atPath: session.path))
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
    try FileSystem.createDirectory(atPath: stale)
    try FileSystem.createDirectory(atPath: live)
    defer {
      try? FileSystem.removeDirectory(atPath: stale)
      try? FileSystem.removeDirectory(atPath: live)
    }
    let removed = TracefsSession.removeStale()
    #expect(removed.contains(stale))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(FileManager.default.fileExists(atPath: live))
  }

  @Test("bench killed with SIGKILL mid-run leaves no instance: its guard removes it")
  func sigkill() async throws {
    let dir = temporaryFolder("tracefs-sigkill")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let bench = try BenchInvocation.start([
      "--runs", "20", "--warmup", "0", "--conditions", "warm", "--configs", "deferred", "--thread-states",
      "on",
      "--quiet", "--out", dir + "/results",
    ])
    let instance = Self.instances + TracefsSession.instancePrefix + String(bench.processIdentifier)
    // Until the instance exists or bench has ended (then it never will: say how bench ended).
    let made = await waitUntil(timeout: .seconds(300)) {
      FileManager.default.fileExists(atPath: instance) || !bench.isRunning
    }
    let exists = FileManager.default.fileExists(atPath: instance)
    let ended = !bench.isRunning
    bench.signal(SIGKILL)
    _ = bench.waitUntilExit(timeout: .seconds(60))
    #expect(
      made && exists,
      """
      bench never made \(instance) (\(ended ? "bench ended first, status \(bench.terminationStatus)" : "bench still running after the wait")): \
      \(bench.standardErrorText)
      """)
    let gone = await waitUntil(timeout: .seconds(60)) { !FileManager.default.fileExists(atPath: instance) }
    let guards = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let guardAlive = guards.contains { pid in
      ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").contains(
        " \(bench.processIdentifier) ")
    }
    #expect(
      gone, "\(instance) outlived bench (a child of bench alive: \(guardAlive)); \(bench.standardErrorText)")
    if !gone { TracefsSession.removeStale() }
  }
}
