/// The states of a launched app's process tree, built from a run's scheduler events.
///
/// The tree is the root process (the pid bench spawned) and every thread and process forked
/// from it, followed through `sched_process_fork` (threads and children alike; `exec` keeps the
/// thread id). A thread is runnable from its fork (`sched_wakeup_new` follows), running from a
/// `sched_switch` into it, and after a switch out in the state `prev_state` names; a wakeup
/// makes a waiting thread runnable. The root's time before its fork (bench still in
/// `posix_spawn`) counts as runnable. Other threads' events only feed ``running(at:)``.
///
/// A tree that existed before the trace began (a relock run) is seeded instead: its threads as
/// `/proc` listed them after tracing started, each in the state the first event naming it says
/// it was in (``initialState(letter:first:)``) from the trace's start; threads they fork later
/// are followed as above.
public struct SchedTimeline: Sendable {
  /// The spawned process's id: its main thread's tid.
  public let root: Int
  /// The tree's threads by tid.
  public private(set) var threads: [Int: ThreadHistory] = [:]
  /// Whether the trace saw the root made (`sched_process_fork` with the root as child); when
  /// not, the trace started late and the root's state before its first event is inferred.
  public private(set) var rootForkSeen = false
  /// Whether the root was among the seed's threads: the tree existed before the trace, and its
  /// threads' states from the trace's start are inferred rather than seen from their fork.
  public private(set) var rootSeeded = false
  /// The last event's time, ns (0 for an empty trace).
  public private(set) var lastEvent: UInt64 = 0
  /// Per CPU: who took it when (a `sched_switch`'s `next`), in time order.
  private var onCPU: [Int: [(ts: UInt64, tid: Int, name: String)]] = [:]
  /// Thread group ids from the lines' `(TGID)` column, by tid.
  private var groups: [Int: Int] = [:]

  /// Builds the timeline of `root`'s tree from `events` (any order: they are sorted by time).
  /// `seed` is the tree read from `/proc` after tracing began, for a tree the trace did not see
  /// made (a relock run); nil when the trace starts before the root's spawn.
  public init(events: [SchedEvent], root: Int, seed: ProcSample? = nil) {
    self.root = root
    let sorted = events.enumerated().sorted { ($0.element.ts, $0.offset) < ($1.element.ts, $1.offset) }.map(
      \.element)
    if let seed { plant(seed, events: sorted) }
    for event in sorted { apply(event) }
    for (tid, group) in groups where threads[tid] != nil { threads[tid]!.tgid = group }
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
  public var main: ThreadHistory? { threads[root] }

  private mutating func apply(_ event: SchedEvent) {
    lastEvent = max(lastEvent, event.ts)
    if let group = event.tgid { groups[event.taskTid] = group }
    switch event.kind {
    case .processFork(let parent, let child, let childComm):
      if child == root {
        rootForkSeen = true
        threads[child] = ThreadHistory(tid: child, name: childComm, state: .runnable, since: 0)
        threads[child]!.born = event.ts
      } else if threads[parent] != nil {
        threads[child] = ThreadHistory(tid: child, name: childComm, state: .runnable, since: event.ts)
        threads[child]!.born = event.ts
      }
    case .wakeup(let tid, _, _):
      adoptRoot(tid, before: .sleeping)
      if let thread = threads[tid], thread.current != .running, thread.ended == nil {
        threads[tid]!.enter(.runnable, at: event.ts)
      }
    case .switchOut(let prev, let prevComm, let prevState, let next, let nextComm):
      onCPU[event.cpu, default: []].append((event.ts, next, nextComm))
      adoptRoot(prev, before: .running)
      adoptRoot(next, before: .runnable)
      if threads[prev] != nil { switchOut(prev, name: prevComm, state: prevState, at: event.ts) }
      if threads[next] != nil, threads[next]!.ended == nil {
        threads[next]!.name = nextComm
        threads[next]!.enter(.running, at: event.ts)
      }
    case .exec(let tid, _):
      adoptRoot(tid, before: .running)
    case .exit(let tid, _):
      adoptRoot(tid, before: .running)
      threads[tid]?.exited = true
    }
  }

  /// A switch out of a tree thread: its new state, the switch, and its end after an exit.
  private mutating func switchOut(_ tid: Int, name: String, state prevState: String, at ts: UInt64) {
    let state = ThreadState(prevState: prevState)
    threads[tid]!.name = name
    threads[tid]!.switches.append(.init(ts: ts, voluntary: state != .runnable))
    if threads[tid]!.exited {
      threads[tid]!.ended = ts
    } else {
      threads[tid]!.enter(state, at: ts)
    }
  }

  /// The root seen for the first time without its fork (a trace that started late): it was in
  /// `state` from the start of time.
  private mutating func adoptRoot(_ tid: Int, before state: ThreadState) {
    guard tid == root, threads[tid] == nil else { return }
    threads[tid] = ThreadHistory(tid: tid, name: "", state: state, since: 0)
  }

  /// The thread on a CPU at `ts`: a tree thread if one was (the main thread first), else any
  /// other thread but the idle task, on the lowest-numbered CPU; nil when no switch says.
  public func running(at ts: UInt64) -> (tid: Int, tgid: Int?, name: String)? {
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
