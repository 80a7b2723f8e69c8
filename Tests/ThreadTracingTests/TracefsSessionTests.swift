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
    // An instance of the test's own claim: no other bench's sweep may remove it.
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token)
    var closed = false
    defer {
      if !closed { session.close() }
      withExtendedLifetime(claim) {}
    }
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
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token)
    defer {
      session.close()
      withExtendedLifetime(claim) {}
    }
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
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token)
    defer {
      session.close()
      withExtendedLifetime(claim) {}
    }
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

  @Test(
    "the next bench removes an instance whose claim is free though its pid lives, and keeps a claimed one")
  func removesStale() throws {
    // A dead bench's claim, free, whose pid is this live process's (reused since).
    let token = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    let claimFile = MachineClaim.machineFolder + "/" + token
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claimFile))
    defer { unlink(claimFile) }
    let live = try MachineClaim()
    defer { withExtendedLifetime(live) {} }
    let stale = Self.instances + TracefsSession.instancePrefix + token
    let kept = Self.instances + TracefsSession.instancePrefix + live.token
    let folders = [stale, stale + TracefsSession.runtimeSuffix, kept, kept + TracefsSession.runtimeSuffix]
    for folder in folders { try FileSystem.createDirectory(atPath: folder) }
    defer { for folder in folders { try? FileSystem.removeDirectory(atPath: folder) } }
    let removed = TracefsSession.removeStale()
    #expect(removed.contains(stale))
    #expect(removed.contains(stale + TracefsSession.runtimeSuffix))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(!FileManager.default.fileExists(atPath: stale + TracefsSession.runtimeSuffix))
    #expect(FileManager.default.fileExists(atPath: kept))
    #expect(FileManager.default.fileExists(atPath: kept + TracefsSession.runtimeSuffix))
  }

  @Test(
    "a run that overflows the buffer is counted lost and grows it: the same work in a later run loses nothing"
  )
  func bufferGrows() throws {
    // 8 KiB a CPU: about 150 events, where 300 forks of /bin/true make thousands.
    try Self.withSession(bufferKB: 8) { session in
      func run() throws -> TracefsSession.Capture {
        try session.begin()
        let child = try ChildProcess.spawn(
          argv: ["/bin/sh", "-c", "i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done"],
          environment: [:]
        )
        _ = child.wait(timeout: 60 * Double(TestTime.scale))
        return session.end()
      }
      let first = try run()
      #expect(first.lostEvents > 0, "300 forks fitted in 8 KiB a CPU: \(first.bytes) bytes")
      #expect(first.bufferKBPerCPU == 8)
      // The next runs get room: one of the next three loses nothing, in a buffer it grew.
      var later: [TracefsSession.Capture] = []
      for _ in 0..<3 {
        let capture = try run()
        later.append(capture)
        if capture.lostEvents == 0 { break }
      }
      let sizes = later.map(\.bufferKBPerCPU)
      #expect(
        later.last?.lostEvents == 0, "still losing events at \(sizes) KiB a CPU: \(later.map(\.lostEvents))")
      #expect(sizes.allSatisfy { $0 > 8 }, "\(sizes)")
      #expect(sizes == sizes.sorted(), "a buffer shrank: \(sizes)")
      let onDisk = FileSystem.readText(atPath: session.path + "/buffer_size_kb") ?? ""
      #expect(Int(onDisk.prefix { $0.isNumber }) ?? 0 >= (sizes.last ?? 0), "buffer_size_kb reads \(onDisk)")
    }
  }

  @Test("a process left untraced (a burner) and what it forks make no events; traced, the same work does")
  func untracked() throws {
    try Self.withSession { session in
      // bench's child, so event-fork has it traced: it forks /bin/true over and over.
      func forker() throws -> ChildProcess {
        try ChildProcess.spawn(argv: ["/bin/sh", "-c", "while :; do /bin/true; done"], environment: [:])
      }
      func forks(of parent: ChildProcess) throws -> Int {
        try session.begin()
        // The test's own child, traced, to wait on: 100 forks of /bin/true (the forker runs meanwhile).
        let marker = try ChildProcess.spawn(
          argv: ["/bin/sh", "-c", "i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i+1)); done"],
          environment: [:]
        )
        _ = marker.wait(timeout: 60 * Double(TestTime.scale))
        let events = SchedTraceParser.parse(session.end().text).events
        #expect(
          events.contains {
            if case .processFork(let p, _, _) = $0.kind { return p == Int(marker.pid) }
            return false
          }, "the traced child's forks are missing")
        return events.count {
          if case .processFork(let p, _, _) = $0.kind { return p == Int(parent.pid) }
          return false
        }
      }
      let traced = try forker()
      defer { traced.terminate(grace: 0) }
      #expect(try forks(of: traced) > 0, "a traced forker made no fork events")
      traced.terminate(grace: 0)
      let left = try forker()
      defer { left.terminate(grace: 0) }
      try session.untrack([left.pid])
      // Out of the traced list (a switch of a traced task with any other is an event), still
      // in it the test's own threads.
      let listed = (FileSystem.readText(atPath: session.path + "/set_event_pid") ?? "").split(
        whereSeparator: \.isWhitespace)
      #expect(!listed.contains(Substring(String(left.pid))), "\(left.pid) still in set_event_pid")
      #expect(listed.contains(Substring(String(ProcessControl.currentProcessID))))
      #expect(try forks(of: left) == 0, "an untracked forker's forks are in the trace")
    }
  }

  /// Runs `body` with a session of the test's own claim (no other bench's sweep may remove it),
  /// closed after.
  static func withSession(
    bufferKB: Int = TracefsSession.bufferKBPerCPU, _ body: (TracefsSession) throws -> Void
  ) throws {
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token, bufferKB: bufferKB)
    defer {
      session.close()
      withExtendedLifetime(claim) {}
    }
    try body(session)
  }

  @Test("another bench's sweep leaves a live session's instance alone, whatever its pid says")
  func sweptUnderIt() throws {
    // The case: another session's sweep removed a test's instance (named by a pid no
    // process has) under it, and the next write to it failed.
    let claim = try MachineClaim()
    let session = try TracefsSession.open(token: claim.token)
    defer {
      session.close()
      withExtendedLifetime(claim) {}
    }
    let removed = TracefsSession.removeStale()
    #expect(!removed.contains(session.path), "the sweep removed \(session.path)")
    try session.begin()
    _ = session.end()
  }

  @Test("close leaves a busy instance to the guard rather than forget it, and removes a free one")
  func closeRetries() throws {
    let missing = Self.instances + TracefsSession.instancePrefix + "0x0000000000000000-none"
    #expect(TracefsSession.removeInstance(missing, retryMilliseconds: 0))
    let claim = try MachineClaim()
    defer { withExtendedLifetime(claim) {} }
    let folder = Self.instances + TracefsSession.instancePrefix + claim.token
    try FileSystem.createDirectory(atPath: folder)
    defer { try? FileSystem.removeDirectory(atPath: folder) }
    // A reader holds the instance's trace_pipe open: the kernel refuses the rmdir (EBUSY).
    let reader = try FileSystem.openForReading(atPath: folder + "/trace_pipe", nonBlocking: true)
    #expect(!TracefsSession.removeInstance(folder, retryMilliseconds: 100))
    #expect(FileManager.default.fileExists(atPath: folder))
    FileDescriptorIO.close(reader)
    #expect(TracefsSession.removeInstance(folder))
    #expect(!FileManager.default.fileExists(atPath: folder))
  }
}
