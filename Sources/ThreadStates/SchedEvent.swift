/// One scheduler event of a tracefs trace, as ``SchedTraceParser`` reads it from the `trace`
/// file's text. Thread ids are the kernel's `pid` (a thread id); a process is its thread group.
package struct SchedEvent: Sendable, Hashable {
  /// When, CLOCK_MONOTONIC ns (the instance's `trace_clock` is `mono`; the text carries µs).
  package var ts: UInt64
  /// The CPU the event was recorded on.
  package var cpu: Int
  /// The thread group (process) id of the task that recorded it, when the trace has the
  /// `record-tgid` column; nil otherwise.
  package var tgid: Int?
  /// The thread id of the task that recorded it (the line's `TASK-PID`).
  package var taskTid: Int
  /// What happened.
  package var kind: Kind

  /// The scheduler events the instrument records.
  package enum Kind: Sendable, Hashable {
    /// `sched_switch`: `prev` left the CPU in `prevState` (`R`/`R+` preempted, `D` I/O, `S`
    /// and the rest waiting) and `next` took it.
    case switchOut(prev: Int, prevComm: String, prevState: String, next: Int, nextComm: String)
    /// `sched_wakeup` (`new: false`) or `sched_wakeup_new` (`new: true`): `tid` became runnable.
    case wakeup(tid: Int, comm: String, new: Bool)
    /// `sched_process_fork`: `parent` made `child` (a process or a thread).
    case processFork(parent: Int, child: Int, childComm: String)
    /// `sched_process_exec`: `tid` ran `filename`.
    case exec(tid: Int, filename: String)
    /// `sched_process_exit`: `tid` ended.
    case exit(tid: Int, comm: String)
    /// `sched_stat_runtime`: the scheduler counted `ns` of CPU time to `tid` (a running
    /// thread), the time since it last counted — since the thread's switch in, the first time
    /// after one. Written at ticks and switches, on the thread's CPU by the thread itself.
    case runtime(tid: Int, ns: UInt64)
  }

  /// Creates an event.
  package init(ts: UInt64, cpu: Int, tgid: Int? = nil, taskTid: Int, kind: Kind) {
    self.ts = ts
    self.cpu = cpu
    self.tgid = tgid
    self.taskTid = taskTid
    self.kind = kind
  }
}
