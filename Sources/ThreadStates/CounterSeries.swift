/// A cumulative counter read at moments (`/proc` totals at bench's samples), read between them
/// by linear interpolation: the value at a phase's boundary is estimated from the two samples
/// around it, and its error is at most what the counter gained between them.
package struct CounterSeries: Sendable, Hashable {
  /// The samples' times, ns, ascending.
  package private(set) var times: [UInt64]
  /// The counter at each time.
  package private(set) var values: [Double]

  /// Creates a series from `points` (sorted here by time).
  package init(_ points: [(ts: UInt64, value: Double)]) {
    let sorted = points.sorted { $0.ts < $1.ts }
    times = sorted.map(\.ts)
    values = sorted.map(\.value)
  }

  /// The value at `ts`: interpolated between the samples around it, the first sample's before
  /// them, the last one's after; 0 for an empty series.
  package func value(at ts: UInt64) -> Double {
    guard let first = times.first else { return 0 }
    if ts <= first { return values[0] }
    guard let after = times.firstIndex(where: { $0 >= ts }) else { return values[values.count - 1] }
    let before = after - 1
    let span = Double(times[after] - times[before])
    let fraction = span == 0 ? 1 : Double(ts - times[before]) / span
    return values[before] + (values[after] - values[before]) * fraction
  }

  /// What the counter gained over `interval` (never negative).
  package func delta(_ interval: PhaseInterval) -> Double {
    max(0, value(at: interval.end) - value(at: interval.start))
  }

  /// The gap between the two samples around `ts`, ns: the most a value read at `ts` can be off
  /// in time. Nil when `ts` is outside the samples (it cannot be bounded).
  package func gap(at ts: UInt64) -> UInt64? {
    guard let first = times.first, let last = times.last, ts >= first, ts <= last else { return nil }
    if times.contains(ts) { return 0 }
    let after = times.firstIndex { $0 > ts }!
    return times[after] - times[after - 1]
  }
}

/// The `/proc` counters a thread-states breakdown reads, summed over a set of threads.
package enum ProcCounter: Sendable, Hashable, CaseIterable {
  /// `schedstat` run time, ns.
  case runNs
  /// `schedstat` run-queue wait, ns.
  case waitNs
  /// `stat` field 42, clock ticks.
  case blkioTicks
  /// `stat` field 10.
  case minorFaults
  /// `stat` field 12.
  case majorFaults
  /// `status`' `voluntary_ctxt_switches`.
  case voluntarySwitches
  /// `status`' `nonvoluntary_ctxt_switches`.
  case involuntarySwitches

  /// This counter of one thread's sample.
  package func value(_ sample: ProcThreadSample) -> UInt64 {
    switch self {
    case .runNs: sample.runNs
    case .waitNs: sample.waitNs
    case .blkioTicks: sample.blkioTicks
    case .minorFaults: sample.minorFaults
    case .majorFaults: sample.majorFaults
    case .voluntarySwitches: sample.voluntarySwitches
    case .involuntarySwitches: sample.involuntarySwitches
    }
  }

  /// The series of this counter over `samples`, summed over the threads `include` accepts.
  /// A thread missing from a later sample (it ended) keeps its last reading, so the sum never
  /// loses what an ended thread did; a thread first seen later counts from 0 before.
  package func series(_ samples: [ProcSample], include: (Int) -> Bool = { _ in true }) -> CounterSeries {
    var last: [Int: UInt64] = [:]
    var points: [(ts: UInt64, value: Double)] = []
    for sample in samples.sorted(by: { $0.ts < $1.ts }) {
      for (tid, thread) in sample.threads where include(tid) { last[tid] = value(thread) }
      points.append((sample.ts, Double(last.values.reduce(0, +))))
    }
    return CounterSeries(points)
  }
}
