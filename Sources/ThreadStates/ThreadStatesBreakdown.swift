import ResultsSchema

/// Turns a run's scheduler trace (exact) or its `/proc` samples (sampled) into the run's
/// `thread_states` record, phase by phase. Pure: no I/O.
package enum ThreadStatesBreakdown {
  /// The `method` of a record built from tracefs.
  package static let exactMethod = "tracefs"
  /// The `method` of a record built from `/proc` samples.
  package static let sampledMethod = "sampled"

  /// What a tracefs session recorded for one run, besides its events.
  package struct TraceTotals: Sendable, Hashable {
    /// Events the kernel dropped or overwrote (`overrun` plus `dropped events`, all CPUs).
    package var lostEvents: Int
    /// Bytes the run's events took in the ring buffer (`bytes`, all CPUs).
    package var traceBytes: Int
    /// Lines of the trace that named an event but could not be read.
    package var malformedLines: Int

    /// Creates the totals.
    package init(lostEvents: Int, traceBytes: Int, malformedLines: Int = 0) {
      self.lostEvents = lostEvents
      self.traceBytes = traceBytes
      self.malformedLines = malformedLines
    }
  }

  /// The exact record: the main thread's four states and the tree's times and switches from
  /// `timeline`; the tree's faults from `samples` (the kernel's scheduler events carry none);
  /// the thread on a CPU at `firstFrame`. `events` is the trace's event count. Incomplete when
  /// events were lost or unreadable, the root's fork was not seen and the root was not seeded
  /// from `/proc` either (``SchedTimeline/rootSeeded``), or the main thread is missing. The
  /// faults are each phase's gain between its boundaries, so a tree sampled first when the run
  /// began (a relock run's seed) counts from there, not from its birth. `bench` and `displayServer`,
  /// when given, get the same figures as the tree from their threads in `timeline` (built with
  /// their pids watched) and their faults from their own samples.
  package static func exact(
    timeline: SchedTimeline, phases: [String: PhaseInterval], samples: [ProcSample], events: Int,
    totals: TraceTotals, firstFrame: UInt64?, bench: WatchedProcess? = nil,
    displayServer: WatchedProcess? = nil
  ) -> BenchResults.ThreadStatesRecord {
    var main: [String: BenchResults.MainThreadStates] = [:]
    for (phase, interval) in phases {
      if let thread = timeline.main {
        let time = thread.time(in: interval)
        main[phase] = BenchResults.MainThreadStates(
          running: ms(time[.running]), runnable: ms(time[.runnable]), io: ms(time[.io]),
          sleeping: ms(time[.sleeping]))
      }
    }
    let incomplete =
      totals.lostEvents > 0 || totals.malformedLines > 0 || !(timeline.rootForkSeen || timeline.rootSeeded)
      || timeline.main == nil
    var record = BenchResults.ThreadStatesRecord(
      method: exactMethod, lostEvents: totals.lostEvents, incomplete: incomplete, events: events,
      traceBytes: totals.traceBytes, main: main,
      tree: traced(Array(timeline.threads.values), samples: samples, phases: phases),
      runningAtFirstFrame: firstFrame.flatMap { timeline.running(at: $0) }.map {
        BenchResults.ThreadIdentity(pid: $0.tgid ?? $0.tid, tid: $0.tid, name: $0.name)
      },
      bench: bench.map { traced(timeline.threads(ofProcess: $0.pid), samples: $0.samples, phases: phases) },
      displayServer: displayServer.map {
        traced(timeline.threads(ofProcess: $0.pid), samples: $0.samples, phases: phases)
      })
    let gaps = switchInGaps(Array(timeline.threads.values), phases: phases)
    record.unseenSwitchIns = gaps.unseen
    record.unseenMs = ms(gaps.unseenNs)
    record.recoveredSwitchIns = gaps.recovered
    return record.incomplete ? withoutFigures(record) : record
  }

  /// `record` with its counts (method, events lost, events, bytes, the gaps counted) and no
  /// figure: an incomplete breakdown has holes that a partial figure would hide (issue 41, item 5).
  static func withoutFigures(_ record: BenchResults.ThreadStatesRecord) -> BenchResults.ThreadStatesRecord {
    var bare = record
    bare.main = [:]
    bare.tree = [:]
    bare.bench = nil
    bare.displayServer = nil
    bare.runningAtFirstFrame = nil
    return bare
  }

  /// Within the phases (from the first's start to the last's end), the tree's switches in that
  /// the trace lacked: those placed from `sched_stat_runtime`, and those not — the switches out
  /// they end in, and the time before them (within the phases) another state took.
  static func switchInGaps(
    _ threads: [ThreadHistory], phases: [String: PhaseInterval]
  ) -> (unseen: Int, unseenNs: UInt64, recovered: Int) {
    guard let start = phases.values.map(\.start).min(), let end = phases.values.map(\.end).max() else {
      return (0, 0, 0)
    }
    var gaps = (unseen: 0, unseenNs: UInt64(0), recovered: 0)
    for thread in threads {
      for span in thread.unseenSwitchIns where span.end > start && span.end <= end {
        gaps.unseen += 1
        gaps.unseenNs += span.end - max(span.start, start)
      }
      gaps.recovered += thread.recoveredSwitchIns.count { $0 >= start && $0 < end }
    }
    return gaps
  }

  /// Per phase, `threads`' times and switches summed, with the faults `samples` gained.
  static func traced(
    _ threads: [ThreadHistory], samples: [ProcSample], phases: [String: PhaseInterval]
  ) -> [String: BenchResults.TreeStates] {
    let minor = ProcCounter.minorFaults.series(samples)
    let major = ProcCounter.majorFaults.series(samples)
    var tree: [String: BenchResults.TreeStates] = [:]
    for (phase, interval) in phases {
      var sums: [ThreadState: UInt64] = [:]
      var voluntary = 0
      var involuntary = 0
      for thread in threads {
        for (state, ns) in thread.time(in: interval) { sums[state, default: 0] += ns }
        let switches = thread.switchCounts(in: interval)
        voluntary += switches.voluntary
        involuntary += switches.involuntary
      }
      tree[phase] = BenchResults.TreeStates(
        cpuMs: ms(sums[.running]), runqueueMs: ms(sums[.runnable]), ioMs: ms(sums[.io]),
        majorFaults: count(major.delta(interval)), minorFaults: count(minor.delta(interval)),
        voluntarySwitches: voluntary, involuntarySwitches: involuntary)
    }
    return tree
  }

  /// The sampled record from `/proc` samples of `root`'s tree: per phase, each counter's gain
  /// between the phase's boundaries, interpolated between the samples around them. The main
  /// thread's `io` is `delayacct_blkio_ticks` (0 unless `kernel.task_delayacct` is on; ticks of
  /// `1 / ticksPerSecond` s) and its `sleeping` the rest of the phase. `error_bound_ms` is the
  /// widest gap between two samples a boundary fell in; a boundary outside the samples makes
  /// the record incomplete. The thread at `firstFrame` is the tree's main thread when its last
  /// sample before then found it running (`R`), else absent: samples cannot say more.
  /// `bench` and `displayServer`, when given, get the tree's figures from their own samples.
  package static func sampled(
    samples: [ProcSample], root: Int, phases: [String: PhaseInterval], ticksPerSecond: Int = 100,
    bench: WatchedProcess? = nil, displayServer: WatchedProcess? = nil
  ) -> BenchResults.ThreadStatesRecord {
    let isMain: (Int) -> Bool = { $0 == root }
    var mainSeries: [ProcCounter: CounterSeries] = [:]
    var treeSeries: [ProcCounter: CounterSeries] = [:]
    for counter in ProcCounter.allCases {
      mainSeries[counter] = counter.series(samples, include: isMain)
      treeSeries[counter] = counter.series(samples)
    }
    let tickMs = 1000 / Double(max(1, ticksPerSecond))
    var main: [String: BenchResults.MainThreadStates] = [:]
    var tree: [String: BenchResults.TreeStates] = [:]
    var bound: UInt64 = 0
    var unbounded = false
    for (phase, interval) in phases {
      func gain(_ series: [ProcCounter: CounterSeries], _ counter: ProcCounter) -> Double {
        series[counter]!.delta(interval)
      }
      for edge in [interval.start, interval.end] {
        if let gap = treeSeries[.runNs]!.gap(at: edge) { bound = max(bound, gap) } else { unbounded = true }
      }
      let running = gain(mainSeries, .runNs) / 1e6
      let runnable = gain(mainSeries, .waitNs) / 1e6
      let io = gain(mainSeries, .blkioTicks) * tickMs
      let duration = Double(interval.nanoseconds) / 1e6
      main[phase] = BenchResults.MainThreadStates(
        running: round(running), runnable: round(runnable), io: round(io),
        sleeping: round(max(0, duration - running - runnable - io)))
      tree[phase] = sampledTotals(treeSeries, interval, tickMs: tickMs)
    }
    let record = BenchResults.ThreadStatesRecord(
      method: sampledMethod, lostEvents: 0, incomplete: unbounded || samples.isEmpty,
      errorBoundMs: round(Double(bound) / 1e6), events: samples.count, main: main, tree: tree,
      bench: bench.map { sampled($0.samples, phases: phases, tickMs: tickMs) },
      displayServer: displayServer.map { sampled($0.samples, phases: phases, tickMs: tickMs) })
    return record.incomplete ? withoutFigures(record) : record
  }

  /// Per phase, the tree's figures for every thread of `samples`.
  static func sampled(
    _ samples: [ProcSample], phases: [String: PhaseInterval], tickMs: Double
  ) -> [String: BenchResults.TreeStates] {
    var series: [ProcCounter: CounterSeries] = [:]
    for counter in ProcCounter.allCases { series[counter] = counter.series(samples) }
    return phases.mapValues { sampledTotals(series, $0, tickMs: tickMs) }
  }

  /// The tree's figures over `interval`: each counter's interpolated gain.
  static func sampledTotals(
    _ series: [ProcCounter: CounterSeries], _ interval: PhaseInterval, tickMs: Double
  ) -> BenchResults.TreeStates {
    func gain(_ counter: ProcCounter) -> Double { series[counter]!.delta(interval) }
    return BenchResults.TreeStates(
      cpuMs: round(gain(.runNs) / 1e6), runqueueMs: round(gain(.waitNs) / 1e6),
      ioMs: round(gain(.blkioTicks) * tickMs), majorFaults: count(gain(.majorFaults)),
      minorFaults: count(gain(.minorFaults)), voluntarySwitches: count(gain(.voluntarySwitches)),
      involuntarySwitches: count(gain(.involuntarySwitches)))
  }

  /// ns → ms, to the µs.
  static func ms(_ ns: UInt64?) -> Double { round(Double(ns ?? 0) / 1e6) }

  /// ms to the µs (the trace's own resolution).
  static func round(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }

  /// A counter's interpolated gain as a whole count.
  static func count(_ value: Double) -> Int { Int(value.rounded()) }
}
