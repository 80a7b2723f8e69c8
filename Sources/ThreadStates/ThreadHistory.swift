/// One thread of the traced process tree: its states over time and its switches.
package struct ThreadHistory: Sendable {
  /// A change of state at `start` (ns), in force until the next one (or the thread's end).
  package struct Segment: Sendable, Hashable {
    /// When the state began, ns.
    package var start: UInt64
    /// The state.
    package var state: ThreadState
  }

  /// A switch out of the thread at `ts` (ns): voluntary when it blocked or slept, involuntary
  /// when it was still runnable (preempted).
  package struct Switch: Sendable, Hashable {
    /// When, ns.
    package var ts: UInt64
    /// Whether the thread gave up its CPU itself.
    package var voluntary: Bool
  }

  /// The thread id.
  package var tid: Int
  /// Its process (thread group) id, when a line's `(TGID)` column said.
  package var tgid: Int?
  /// Its latest `comm`.
  package var name: String
  /// Its `sched_process_fork` time, ns; nil when the trace did not see it made.
  package var born: UInt64?
  /// When it left its CPU for the last time after `sched_process_exit`, ns.
  package var ended: UInt64?
  /// Whether `sched_process_exit` was seen.
  var exited = false
  /// Its states, in time order.
  package var segments: [Segment]
  /// Its switches out, in time order.
  package var switches: [Switch] = []
  /// The spans that ended in a switch out of the thread while the trace had it in another state
  /// than running: the switch into it is missing (this kernel leaves switches out of the idle
  /// task out of the trace on some CPUs) and no `sched_stat_runtime` placed it. Part of each
  /// span was running, counted in the state before it.
  package var unseenSwitchIns: [PhaseInterval] = []
  /// When the switches into the thread that the trace lacked were, ns, as ``SchedTimeline``
  /// placed them from the thread's next `sched_stat_runtime` (its time less the runtime it
  /// reports), in time order.
  package var recoveredSwitchIns: [UInt64] = []

  /// Creates a thread in `state` from `since` on.
  init(tid: Int, name: String, state: ThreadState, since: UInt64) {
    self.tid = tid
    self.name = name
    self.segments = [Segment(start: since, state: state)]
  }

  /// The state it is in now (its latest segment's).
  var current: ThreadState { segments[segments.count - 1].state }

  /// When it entered the state it is in now, ns.
  var currentSince: UInt64 { segments[segments.count - 1].start }

  /// A traced switch in at `ts` within a microsecond (the text's resolution) of the switch in
  /// last placed from `sched_stat_runtime`, while the thread still runs from it: that switch was
  /// not missing after all, so it is no longer counted as placed, and running starts at `ts`.
  mutating func confirmPlacedSwitchIn(at ts: UInt64) {
    guard let placed = recoveredSwitchIns.last, current == .running, currentSince == placed, ts >= placed,
      ts - placed <= 1_000
    else { return }
    recoveredSwitchIns.removeLast()
    segments[segments.count - 1].start = ts
  }

  /// Records a change of state at `ts` (none when the state does not change).
  mutating func enter(_ state: ThreadState, at ts: UInt64) {
    guard state != current else { return }
    if segments[segments.count - 1].start == ts {
      segments[segments.count - 1].state = state
    } else {
      segments.append(Segment(start: ts, state: state))
    }
  }

  /// Nanoseconds spent in each state within `interval`; time before the thread's first segment
  /// or after its end is not counted.
  package func time(in interval: PhaseInterval) -> [ThreadState: UInt64] {
    var out: [ThreadState: UInt64] = [:]
    for (index, segment) in segments.enumerated() {
      let next = index + 1 < segments.count ? segments[index + 1].start : (ended ?? UInt64.max)
      let from = max(segment.start, interval.start)
      let to = min(next, interval.end)
      if to > from { out[segment.state, default: 0] += to - from }
    }
    return out
  }

  /// The switches out within `interval` (`start` included, `end` excluded): voluntary, involuntary.
  package func switchCounts(in interval: PhaseInterval) -> (voluntary: Int, involuntary: Int) {
    var voluntary = 0
    var involuntary = 0
    for change in switches where change.ts >= interval.start && change.ts < interval.end {
      if change.voluntary { voluntary += 1 } else { involuntary += 1 }
    }
    return (voluntary, involuntary)
  }
}
