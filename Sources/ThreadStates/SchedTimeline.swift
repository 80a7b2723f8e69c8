/// The states of a launched app's process tree, built from a run's scheduler events.
///
/// The tree is the root process (the pid bench spawned) and every thread and process forked
/// from it, followed through `sched_process_fork` (threads and children alike; `exec` keeps the
/// thread id). A thread is runnable from its fork (`sched_wakeup_new` follows), running from a
/// `sched_switch` into it, and after a switch out in the state `prev_state` names; a wakeup
/// makes a waiting thread runnable. The root's time before its fork (bench still in
/// `posix_spawn`) counts as runnable. The threads of watched processes (bench's own, the X
/// server's) follow the same rules apart from the tree (``threads(ofProcess:)``); every other
/// thread's events only feed ``running(at:)``.
///
/// A tree that existed before the trace began (a relock run) is seeded instead: its threads as
/// `/proc` listed them after tracing started, each in the state the first event naming it says
/// it was in (``initialState(letter:first:)``) from the trace's start; threads they fork later
/// are followed as above.
package struct SchedTimeline: Sendable {
  /// The spawned process's id: its main thread's tid.
  package let root: Int
  /// The tree's threads by tid.
  package private(set) var threads: [Int: ThreadHistory] = [:]
  /// Whether the trace saw the root made (`sched_process_fork` with the root as child); when
  /// not, the trace started late and the root's state before its first event is inferred.
  package private(set) var rootForkSeen = false
  /// Whether the root was among the seed's threads: the tree existed before the trace, and its
  /// threads' states from the trace's start are inferred rather than seen from their fork.
  package private(set) var rootSeeded = false
  /// The last event's time, ns (0 for an empty trace).
  package private(set) var lastEvent: UInt64 = 0
  /// Per CPU: who took it when (a `sched_switch`'s `next`), in time order.
  private var onCPU: [Int: [(ts: UInt64, tid: Int, name: String)]] = [:]
  /// Thread group ids from the lines' `(TGID)` column, by tid (read before the events apply).
  private var groups: [Int: Int] = [:]
  /// The processes whose threads are followed apart from the tree (by their pids).
  package let watched: Set<Int>
  /// The watched processes' threads by tid; never a thread of the tree.
  private var others: [Int: ThreadHistory] = [:]

  /// Builds the timeline of `root`'s tree from `events` (any order: they are sorted by time),
  /// and apart from it the threads of the processes `watched` names (bench itself, the X
  /// server): every thread whose thread group (the lines' `(TGID)` column) is one of them, never
  /// a thread of the tree. A watched thread that existed before the trace began is adopted at its
  /// first event in the state that event implies, from the start of time (as a late root is).
  /// `seed` is the tree read from `/proc` after tracing began, for a tree the trace did not see
  /// made (a relock run); nil when the trace starts before the root's spawn.
  package init(events: [SchedEvent], root: Int, seed: ProcSample? = nil, watched: Set<Int> = []) {
    self.root = root
    self.watched = watched
    for event in events { if let group = event.tgid { groups[event.taskTid] = group } }
    let sorted = events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(
      \.element)
    if let seed { plant(seed, events: sorted) }
    for event in sorted { apply(event) }
    for (tid, group) in groups where threads[tid] != nil { threads[tid]!.tgid = group }
    for (tid, group) in groups where others[tid] != nil { others[tid]!.tgid = group }
  }

  /// Adds `seed`'s threads, each in its state at the trace's start (from 0): what its first
  /// event in `events` (time order) says, else its `/proc` state letter.
  private mutating func plant(_ seed: ProcSample, events: [SchedEvent]) {
    let firsts = Self.firstSightings(of: Set(seed.threads.keys), in: events)
    for (tid, sample) in seed.threads {
      let state = Self.initialState(letter: sample.state, first: firsts[tid])
      threads[tid] = ThreadHistory(tid: tid, name: sample.name, state: state, since: 0)
    }
    rootSeeded = seed.threads[root] != nil
  }

  /// The root's main thread, when the trace saw it.
  package var main: ThreadHistory? { threads[root] }

  /// The threads of the watched process `pid` (its thread group) the trace saw, by tid.
  package func threads(ofProcess pid: Int) -> [ThreadHistory] {
    others.values.filter { $0.tgid == pid || $0.tid == pid }
  }

  /// The watched process `tid` belongs to, unless it is a thread of the tree.
  private func watchedGroup(_ tid: Int) -> Int? {
    guard threads[tid] == nil, tid != root, tid != 0 else { return nil }
    if watched.contains(tid) { return tid }
    return groups[tid].flatMap { watched.contains($0) ? $0 : nil }
  }

  private mutating func apply(_ event: SchedEvent) {
    lastEvent = max(lastEvent, event.ts)
    switch event.kind {
    case .processFork(let parent, let child, let childComm):
      if child == root {
        rootForkSeen = true
        threads[child] = ThreadHistory(tid: child, name: childComm, state: .runnable, since: 0)
        threads[child]!.born = event.ts
      } else if threads[parent] != nil {
        threads[child] = ThreadHistory(tid: child, name: childComm, state: .runnable, since: event.ts)
        threads[child]!.born = event.ts
      } else if watchedGroup(child) != nil {
        others[child] = ThreadHistory(tid: child, name: childComm, state: .runnable, since: event.ts)
        others[child]!.born = event.ts
      }
    case .wakeup(let tid, _, _):
      adopt(tid, before: .sleeping)
      Self.wake(tid, at: event.ts, in: &threads)
      Self.wake(tid, at: event.ts, in: &others)
    case .switchOut(let prev, let prevComm, let prevState, let next, let nextComm):
      onCPU[event.cpu, default: []].append((event.ts, next, nextComm))
      adopt(prev, before: .running)
      adopt(next, before: .runnable)
      Self.switchOut(prev, name: prevComm, state: prevState, at: event.ts, in: &threads)
      Self.switchOut(prev, name: prevComm, state: prevState, at: event.ts, in: &others)
      Self.switchIn(next, name: nextComm, at: event.ts, in: &threads)
      Self.switchIn(next, name: nextComm, at: event.ts, in: &others)
    case .exec(let tid, _):
      adopt(tid, before: .running)
    case .exit(let tid, _):
      adopt(tid, before: .running)
      threads[tid]?.exited = true
      others[tid]?.exited = true
    case .runtime(let tid, let ns):
      adopt(tid, before: .running)
      recoverSwitchIn(tid, ranFor: ns, at: event.ts, cpu: event.taskTid == tid ? event.cpu : nil)
    }
  }

  /// A `sched_stat_runtime` of `tid` at `ts` counting `ns` since the scheduler last counted:
  /// when the timeline does not have the thread running, the switch into it is missing from the
  /// trace (this kernel drops switches out of the idle task on some CPUs), and it ran from
  /// `ts - ns` — the first count after a switch in runs from it — but not before the state it was
  /// in began. `cpu`, when the thread wrote the event itself, is the CPU it took then.
  private mutating func recoverSwitchIn(_ tid: Int, ranFor ns: UInt64, at ts: UInt64, cpu: Int?) {
    let from = ts > ns ? ts - ns : 0
    guard
      let at = Self.recover(tid, from: from, at: ts, in: &threads)
        ?? Self.recover(tid, from: from, at: ts, in: &others)
    else { return }
    guard let cpu else { return }
    let name = threads[tid]?.name ?? others[tid]?.name ?? ""
    var taken = onCPU[cpu, default: []]
    taken.insert((at, tid, name), at: taken.lastIndex { $0.ts <= at }.map { $0 + 1 } ?? 0)
    onCPU[cpu] = taken
  }

  /// Puts `tid`, when `set` holds it and the timeline has it in another state than running, on a
  /// CPU from `from` (no earlier than its current state began, no later than `ts`); the time.
  private static func recover(_ tid: Int, from: UInt64, at ts: UInt64, in set: inout [Int: ThreadHistory])
    -> UInt64?
  {
    guard let thread = set[tid], thread.current != .running, thread.ended == nil else { return nil }
    let at = min(max(from, thread.currentSince), ts)
    set[tid]!.enter(.running, at: at)
    set[tid]!.recoveredSwitchIns.append(at)
    return at
  }

  /// A wakeup of `tid`, when `set` holds it: runnable unless it is on a CPU or has ended.
  private static func wake(_ tid: Int, at ts: UInt64, in set: inout [Int: ThreadHistory]) {
    if let thread = set[tid], thread.current != .running, thread.ended == nil {
      set[tid]!.enter(.runnable, at: ts)
    }
  }

  /// A switch into `tid`, when `set` holds it and it has not ended: running.
  private static func switchIn(_ tid: Int, name: String, at ts: UInt64, in set: inout [Int: ThreadHistory]) {
    guard set[tid] != nil, set[tid]!.ended == nil else { return }
    set[tid]!.name = name
    // A `sched_stat_runtime` in the same microsecond came first and placed this very switch.
    set[tid]!.confirmPlacedSwitchIn(at: ts)
    set[tid]!.enter(.running, at: ts)
  }

  /// A switch out of `tid`, when `set` holds it: its new state, the switch, and its end after
  /// an exit.
  private static func switchOut(
    _ tid: Int, name: String, state prevState: String, at ts: UInt64, in set: inout [Int: ThreadHistory]
  ) {
    guard set[tid] != nil else { return }
    let state = ThreadState(prevState: prevState)
    if set[tid]!.current != .running, set[tid]!.ended == nil {
      set[tid]!.unseenSwitchIns.append(PhaseInterval(start: set[tid]!.currentSince, end: ts))
    }
    set[tid]!.name = name
    set[tid]!.switches.append(.init(ts: ts, voluntary: state != .runnable))
    if set[tid]!.exited {
      set[tid]!.ended = ts
    } else {
      set[tid]!.enter(state, at: ts)
    }
  }

  /// The root, or a watched process's thread, seen for the first time without its fork (it
  /// existed before the trace began, or the trace started late): it was in `state` from the
  /// start of time.
  private mutating func adopt(_ tid: Int, before state: ThreadState) {
    if tid == root, threads[tid] == nil {
      threads[tid] = ThreadHistory(tid: tid, name: "", state: state, since: 0)
    } else if others[tid] == nil, watchedGroup(tid) != nil {
      others[tid] = ThreadHistory(tid: tid, name: "", state: state, since: 0)
    }
  }

  /// The thread on a CPU at `ts`: a tree thread if one was (the main thread first), else any
  /// other thread but the idle task, on the lowest-numbered CPU; nil when no switch says.
  package func running(at ts: UInt64) -> (tid: Int, tgid: Int?, name: String)? {
    var others: [(tid: Int, tgid: Int?, name: String)] = []
    var tree: [(tid: Int, tgid: Int?, name: String)] = []
    for cpu in onCPU.keys.sorted() {
      guard let last = onCPU[cpu]!.last(where: { $0.ts <= ts }), last.tid != 0 else { continue }
      let entry = (last.tid, groups[last.tid], last.name)
      if threads[last.tid] != nil { tree.append(entry) } else { others.append(entry) }
    }
    return tree.first { $0.tid == root } ?? tree.first ?? others.first
  }
}
