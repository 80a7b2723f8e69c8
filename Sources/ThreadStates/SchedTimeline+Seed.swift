/// A tree that existed before its trace began (a relock run: the app was launched before the
/// window): its threads come from `/proc`, and what each was doing when tracing started is
/// inferred from the first event that names it.
extension SchedTimeline {
  /// What a thread's first event in a trace says about the moment before it.
  package enum FirstSighting: Sendable, Hashable {
    /// A `sched_switch` took it off its CPU (`prev_pid`): it was running until then.
    case switchedOut
    /// A `sched_switch` put it on a CPU (`next_pid`): it was runnable, waiting for one.
    case switchedIn
    /// A `sched_wakeup` woke it: it was waiting.
    case wokenUp
    /// It recorded an event of its own (it forked, woke another thread, exec'd or exited): only a
    /// thread on a CPU records events, so it was running.
    case recorded
  }

  /// The state a seeded thread was in when the trace began: its first event's word when it has
  /// one (a wakeup's waiting is `io` when `/proc`'s `letter` was `D`, else sleeping); else its
  /// `/proc/PID/task/TID/stat` state `letter`, read after tracing began and unchanged since, for
  /// no event changed it: `R` is running (a thread waiting for a CPU through the whole trace
  /// would have been switched in), `D` is I/O, any other letter sleeping.
  package static func initialState(letter: Character, first: FirstSighting?) -> ThreadState {
    switch first {
    case .switchedOut, .recorded: .running
    case .switchedIn: .runnable
    case .wokenUp: letter == "D" ? .io : .sleeping
    case nil:
      switch letter {
      case "R": .running
      case "D": .io
      default: .sleeping
      }
    }
  }

  /// The first sighting of each of `tids` in `events` (in time order); a thread the events never
  /// name is absent.
  static func firstSightings(of tids: Set<Int>, in events: [SchedEvent]) -> [Int: FirstSighting] {
    var out: [Int: FirstSighting] = [:]
    func see(_ tid: Int, _ sighting: FirstSighting) {
      if tids.contains(tid), out[tid] == nil { out[tid] = sighting }
    }
    for event in events {
      switch event.kind {
      case .switchOut(let prev, _, _, let next, _):
        see(prev, .switchedOut)
        see(next, .switchedIn)
      case .wakeup(let tid, _, _):
        see(event.taskTid, .recorded)
        see(tid, .wokenUp)
      case .processFork, .exec, .exit, .runtime:
        see(event.taskTid, .recorded)
      }
      if out.count == tids.count { break }
    }
    return out
  }
}
