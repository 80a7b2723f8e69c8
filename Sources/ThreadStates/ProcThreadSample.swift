/// One thread's counters as `/proc/PID/task/TID/{schedstat,stat,status}` give them: totals
/// since the thread began, read at one moment.
package struct ProcThreadSample: Sendable, Hashable {
  /// Time on a CPU, ns (`schedstat` field 1).
  package var runNs: UInt64
  /// Time runnable waiting for a CPU, ns (`schedstat` field 2).
  package var waitNs: UInt64
  /// The state letter (`stat` field 3: `R`, `S`, `D`, …).
  package var state: Character
  /// Its `comm` (`stat` field 2).
  package var name: String
  /// Minor page faults (`stat` field 10).
  package var minorFaults: UInt64
  /// Major page faults (`stat` field 12).
  package var majorFaults: UInt64
  /// Time blocked on block I/O, clock ticks (`stat` field 42, `delayacct_blkio_ticks`); 0
  /// unless `kernel.task_delayacct` is on.
  package var blkioTicks: UInt64
  /// Voluntary switches (`status`' `voluntary_ctxt_switches`).
  package var voluntarySwitches: UInt64
  /// Involuntary switches (`status`' `nonvoluntary_ctxt_switches`).
  package var involuntarySwitches: UInt64

  /// Creates a sample.
  package init(
    runNs: UInt64, waitNs: UInt64, state: Character = "S", name: String = "", minorFaults: UInt64 = 0,
    majorFaults: UInt64 = 0, blkioTicks: UInt64 = 0, voluntarySwitches: UInt64 = 0,
    involuntarySwitches: UInt64 = 0
  ) {
    self.runNs = runNs
    self.waitNs = waitNs
    self.state = state
    self.name = name
    self.minorFaults = minorFaults
    self.majorFaults = majorFaults
    self.blkioTicks = blkioTicks
    self.voluntarySwitches = voluntarySwitches
    self.involuntarySwitches = involuntarySwitches
  }

  /// Reads a thread's three files' text; nil when one is cut or not what the kernel writes.
  package init?(schedstat: String, stat: String, status: String) {
    let sched = schedstat.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard sched.count >= 2, let run = UInt64(sched[0]), let wait = UInt64(sched[1]) else { return nil }
    // `comm` sits in parentheses and may hold spaces and parentheses: the fields follow the last `)`.
    guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" })
    // fields[n - 3] is `stat` field n (1-based, as proc(5) numbers them).
    guard fields.count >= 10, let state = fields[0].first, let minor = UInt64(fields[7]),
      let major = UInt64(fields[9])
    else { return nil }
    let blkio = fields.count >= 40 ? UInt64(fields[39]) ?? 0 : 0
    var voluntary: UInt64 = 0
    var involuntary: UInt64 = 0
    for line in status.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let value = UInt64(parts[1].filter { $0 != " " && $0 != "\t" }) ?? 0
      if parts[0] == "voluntary_ctxt_switches" { voluntary = value }
      if parts[0] == "nonvoluntary_ctxt_switches" { involuntary = value }
    }
    self.init(
      runNs: run, waitNs: wait, state: state, name: String(stat[stat.index(after: open)..<close]),
      minorFaults: minor, majorFaults: major, blkioTicks: blkio, voluntarySwitches: voluntary,
      involuntarySwitches: involuntary)
  }
}

/// The process tree's threads read at one moment (`ts`, CLOCK_MONOTONIC ns).
package struct ProcSample: Sendable, Hashable {
  /// When the sample was taken, ns (the middle of its reads).
  package var ts: UInt64
  /// The tree's threads by tid.
  package var threads: [Int: ProcThreadSample]

  /// Creates a sample.
  package init(ts: UInt64, threads: [Int: ProcThreadSample]) {
    self.ts = ts
    self.threads = threads
  }
}
