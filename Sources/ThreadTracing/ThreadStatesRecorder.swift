import LaunchContract
import ResultsSchema
import SystemCalls
import ThreadStates

/// One run's thread-states instrument: tracing (or sampling) from just before the spawn to the
/// end of the run, then the run's ``BenchResults/ThreadStatesRecord`` for its phases. A relock
/// run's app already runs: the instrument attaches to it just before the unlock instead
/// (``attach(to:)``), with the tree as `/proc` lists it then as the seed.
///
/// `/proc` is sampled in both methods, by a thread of bench's own every ``samplePeriodNs``
/// from the spawn to the end (and once at each end): `sampled` takes every figure from the
/// samples, `tracefs` only the page faults, which the scheduler's events do not carry. The same
/// thread samples bench's own threads and the display server's (``watched``), from just before the
/// spawn: they get figures of their own, apart from the app's tree.
package final class ThreadStatesRecorder: Sendable {
  /// The gap between two `/proc` samples, ns: 10 ms, so a sampled figure's boundary is off by at
  /// most that (plus the sample's own reading time), at a cost of a few file reads per thread.
  package static let samplePeriodNs: UInt64 = 10_000_000

  private let method: ThreadStatesMethod
  private let root = PThreadMutex<Int32?>(nil)
  private let samples = PThreadMutex<[ProcSample]>([])
  private let stopped = PThreadMutex(false)
  private let done = PThreadMutex(false)
  private let capture = PThreadMutex<TracefsSession.Capture?>(nil)
  /// The tree read right after tracing began, for an app that was already running; nil for a spawn.
  private let seed = PThreadMutex<ProcSample?>(nil)
  /// bench's own time on tracefs in ``begin()`` and ``end()``, ns (the record's `bench_ms`).
  private let costNs = PThreadMutex<(begin: UInt64, end: UInt64)>((0, 0))
  /// Bench's pid and the display server's (nil without one): the processes reported apart.
  private let watched: (bench: Int32, displayServer: Int32?)
  /// Their samples: bench's first, the display server's second (empty without one).
  private let watchedSamples = PThreadMutex<[[ProcSample]]>([[], []])

  /// A recorder for one run; nil for `off`. `displayServer` is the display server's pid when
  /// bench knows it (the X server on the X11 paths, the private Wayland compositor on
  /// `wayland`); `bench` is bench's own pid.
  package init?(
    method: ThreadStatesMethod, displayServer: Int32? = nil, bench: Int32 = ProcessControl.currentProcessID
  ) {
    if case .off = method { return nil }
    self.method = method
    self.watched = (bench, displayServer)
  }

  /// Called just before the spawn: samples bench's and the display server's threads (they exist
  /// already), clears the trace buffer and turns tracing on. A failure leaves the run without a
  /// trace (its record is incomplete).
  package func begin() {
    sampleWatched()
    guard case .tracefs(let session) = method else { return }
    // A display server is not among the tasks event-fork follows: bench did not start it, or
    // started it before tracing (an Xvfb, a compositor from a thread of its own, as nobody).
    if let x = watched.displayServer { try? session.track(x, descendants: false) }
    let started = MonotonicClock.now()
    try? session.begin()
    let took = MonotonicClock.now() - started
    costNs.withLock { $0.begin = took }
  }

  /// One sample each of bench's own threads and the display server's (not their children: bench's are
  /// the app's tree).
  private func sampleWatched() {
    let bench = ProcTreeSampler.sample(root: watched.bench, children: false)
    let x = watched.displayServer.map { ProcTreeSampler.sample(root: $0, children: false) }
    watchedSamples.withLock {
      $0[0].append(bench)
      if let x { $0[1].append(x) }
    }
  }

  /// Called right after the spawn of `pid` at `spawnedAt` (CLOCK_MONOTONIC ns): samples it,
  /// and keeps sampling until ``end()``. Before the spawn the tree did not exist: every counter
  /// was 0 at `spawnedAt`, the first sample of the series, so a phase that starts at the spawn
  /// has a bounded start.
  package func spawned(_ pid: Int32, at spawnedAt: UInt64) {
    root.withLock { $0 = pid }
    samples.withLock {
      $0.append(ProcSample(ts: spawnedAt, threads: [:]))
      $0.append(ProcTreeSampler.sample(root: pid))
    }
    startSampling(pid)
  }

  /// Called for a run whose app `pid` already runs (relock), just before the run's window
  /// starts (the unlock): turns tracing on, then reads the tree from `/proc` — its threads are
  /// the timeline's seed, and its counters the run's zero, so that every figure counts from
  /// here and not from the app's launch — and keeps sampling until ``end()``.
  package func attach(to pid: Int32) {
    // bench started the app, so event-fork has its tasks traced already; a tree that came some
    // other way (threads made while the list was being written) is added here.
    if case .tracefs(let session) = method { try? session.track(pid) }
    begin()
    let first = ProcTreeSampler.sample(root: pid)
    seed.withLock { $0 = first }
    root.withLock { $0 = pid }
    samples.withLock { $0.append(first) }
    startSampling(pid)
  }

  /// Samples `pid`'s tree every ``samplePeriodNs`` on a thread of its own until ``end()``.
  private func startSampling(_ pid: Int32) {
    do {
      try SystemThread.start(name: "bench-states") { [self] in
        var next = MonotonicClock.now() + Self.samplePeriodNs
        while !stopped.withLock({ $0 }) {
          MonotonicClock.sleep(until: next)
          next += Self.samplePeriodNs
          if stopped.withLock({ $0 }) { break }
          let sample = ProcTreeSampler.sample(root: pid)
          samples.withLock { $0.append(sample) }
          sampleWatched()
        }
        done.withLock { $0 = true }
      }
    } catch {
      // No sampling thread (out of threads): the run keeps its first and last samples only.
      done.withLock { $0 = true }
    }
  }

  /// Called at the end of the run, once the app is stopped: the last sample, tracing off.
  package func end() {
    stopped.withLock { $0 = true }
    // Only a spawned run has a sampling thread to wait for.
    while root.withLock({ $0 }) != nil, !done.withLock({ $0 }) {
      MonotonicClock.sleep(nanoseconds: 1_000_000)
    }
    if let pid = root.withLock({ $0 }) {
      // An app that ended gives an empty sample, which only stamps the end.
      let last = ProcTreeSampler.sample(root: pid)
      samples.withLock { $0.append(last) }
      sampleWatched()
    }
    if case .tracefs(let session) = method {
      let started = MonotonicClock.now()
      let captured = session.end()
      let took = MonotonicClock.now() - started
      costNs.withLock { $0.end = took }
      capture.withLock { $0 = captured }
      // For a person looking into a breakdown: the raw trace of the run, kept when asked for (a
      // relock cell's runs share one app, so theirs carry the seed's time, ns, too).
      if let folder = HarnessVariable.keepSchedTrace.value,
        let pid = root.withLock({ $0 })
      {
        let name = seed.withLock { $0 }.map { "sched-\(pid)-\($0.ts).txt" } ?? "sched-\(pid).txt"
        try? FileSystem.replaceAtomically(Array(captured.text.utf8), atPath: "\(folder)/\(name)")
        if !captured.runtimeText.isEmpty {
          try? FileSystem.replaceAtomically(
            Array(captured.runtimeText.utf8), atPath: "\(folder)/runtime-\(name)")
        }
        // The device instance's text (docs/kernel-device-phases.md), beside it.
        if !captured.deviceText.isEmpty {
          try? FileSystem.replaceAtomically(
            Array(captured.deviceText.utf8), atPath: "\(folder)/device-\(name)")
        }
      }
    }
  }

  /// The run's record for `phases` (CLOCK_MONOTONIC ns); `firstFrame` is the probe's scanout
  /// time of the first live frame. Nil when the app was never spawned.
  package func record(phases: [String: PhaseInterval], firstFrame: UInt64?) -> BenchResults
    .ThreadStatesRecord?
  {
    guard let pid = root.withLock({ $0 }) else { return nil }
    let samples = self.samples.withLock { $0 }
    let others = watchedSamples.withLock { $0 }
    let bench = WatchedProcess(pid: Int(watched.bench), samples: others[0])
    let displayServer = watched.displayServer.map { WatchedProcess(pid: Int($0), samples: others[1]) }
    guard case .tracefs = method, let capture = capture.withLock({ $0 }) else {
      return ThreadStatesBreakdown.sampled(
        samples: samples, root: Int(pid), phases: phases, bench: bench, displayServer: displayServer)
    }
    let started = MonotonicClock.now()
    var parsed = SchedTraceParser.parse(capture.text)
    // The companion's `sched_stat_runtime`s first: one that shares a timestamp with a switch
    // out was written before it (the scheduler counts the time, then switches).
    let runtime = SchedTraceParser.parse(capture.runtimeText)
    parsed.events = runtime.events + parsed.events
    parsed.malformedLines += runtime.malformedLines
    // In another pid namespace the trace names tasks by the machine's ids: the app is what the
    // spawning thread forked, bench the thread's process (a display server's id is not known there).
    var traced = (root: Int(pid), bench: bench, displayServer: displayServer)
    if case .tracefs(let session) = method, let spawner = session.spawner {
      traced.root = TraceMarker.spawnedProcess(by: spawner.tid, in: parsed.events) ?? traced.root
      traced.bench = WatchedProcess(pid: spawner.tgid ?? spawner.tid, samples: bench.samples)
      traced.displayServer = nil
    }
    let timeline = SchedTimeline(
      events: parsed.events, root: traced.root, seed: seed.withLock { $0 },
      watched: Set([traced.bench.pid] + (traced.displayServer.map { [$0.pid] } ?? [])))
    var record = ThreadStatesBreakdown.exact(
      timeline: timeline, phases: phases, samples: samples, events: parsed.events.count,
      totals: .init(
        lostEvents: capture.lostEvents, traceBytes: capture.bytes,
        // A trace cut at the read limit misses its end: as good as an unreadable line.
        malformedLines: parsed.malformedLines + (capture.truncated ? 1 : 0)),
      firstFrame: firstFrame, bench: traced.bench, displayServer: traced.displayServer)
    record.bufferKBPerCPU = capture.bufferKBPerCPU
    record.eventsToFirstFrame = firstFrame.map { frame in parsed.events.count { $0.ts <= frame } }
    let parseNs = MonotonicClock.now() - started
    let cost = costNs.withLock { $0 }
    record.benchMs = .init(
      begin: Self.ms(cost.begin), end: Self.ms(cost.end), parse: Self.ms(parseNs))
    return record
  }

  /// The run's device trace (docs/kernel-device-phases.md): the device instance's text and the
  /// events it dropped, captured with the scheduler's at ``end()``; or why there is none.
  package func deviceTrace() -> (text: String, lostEvents: Int)? {
    guard case .tracefs(let session) = method, session.devicePath != nil,
      let capture = capture.withLock({ $0 })
    else { return nil }
    return (capture.deviceText, capture.deviceLostEvents)
  }

  /// `ns` in ms.
  static func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
}
