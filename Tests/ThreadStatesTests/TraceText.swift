/// Hand-written trace lines for the tests, in the `trace` file's format with `record-tgid`.
enum TraceText {
  /// A `sched_switch` line at `ms` (ms since 0) on `cpu`.
  static func switchOut(
    _ ms: Double, cpu: Int = 0, prev: Int, _ prevComm: String = "app", state: String, next: Int,
    _ nextComm: String = "other", tgid: Int? = nil
  ) -> String {
    head(ms, cpu: cpu, comm: prevComm, tid: prev, tgid: tgid ?? prev)
      + "sched_switch: prev_comm=\(prevComm) prev_pid=\(prev) prev_prio=120 prev_state=\(state) ==> next_comm=\(nextComm) next_pid=\(next) next_prio=120"
  }

  /// A `sched_wakeup` (or `_new`) line of `tid`, written by `by` (of the thread group `byGroup`,
  /// `by` itself unless given).
  static func wakeup(
    _ ms: Double, cpu: Int = 0, tid: Int, _ comm: String = "app", by: Int = 1, byGroup: Int? = nil,
    new: Bool = false
  )
    -> String
  {
    head(ms, cpu: cpu, comm: "waker", tid: by, tgid: byGroup ?? by)
      + "sched_wakeup\(new ? "_new" : ""): comm=\(comm) pid=\(tid) prio=120 target_cpu=00\(cpu)"
  }

  /// A `sched_stat_runtime` line: `tid` ran `ranMs` since the scheduler last counted its time,
  /// written by `by` (`tid` itself unless given: the kernel counts a running thread's time on
  /// its own CPU at a tick or a switch, and another CPU's only when asked for it).
  static func runtime(
    _ ms: Double, cpu: Int = 0, tid: Int, _ comm: String = "app", ranMs: Double, by: Int? = nil
  )
    -> String
  {
    head(ms, cpu: cpu, comm: comm, tid: by ?? tid, tgid: by ?? tid)
      + "sched_stat_runtime: comm=\(comm) pid=\(tid) runtime=\(ns(ranMs)) [ns]"
  }

  /// A `sched_process_fork` line.
  static func fork(_ ms: Double, cpu: Int = 0, parent: Int, child: Int, _ comm: String = "app") -> String {
    head(ms, cpu: cpu, comm: comm, tid: parent, tgid: parent)
      + "sched_process_fork: comm=\(comm) pid=\(parent) child_comm=\(comm) child_pid=\(child)"
  }

  /// A `sched_process_exit` line.
  static func exit(_ ms: Double, cpu: Int = 0, tid: Int, _ comm: String = "app") -> String {
    head(ms, cpu: cpu, comm: comm, tid: tid, tgid: tid)
      + "sched_process_exit: comm=\(comm) pid=\(tid) prio=120"
  }

  /// `ms` as the trace writes seconds: six decimals.
  static func seconds(_ ms: Double) -> String {
    let us = Int((ms * 1000).rounded())
    let fraction = String(us % 1_000_000)
    return "\(us / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
  }

  private static func head(_ ms: Double, cpu: Int, comm: String, tid: Int, tgid: Int) -> String {
    "   \(comm)-\(tid)   (  \(tgid)) [00\(cpu)] d..2. \(seconds(ms)): "
  }

  /// The ns of `ms`.
  static func ns(_ ms: Double) -> UInt64 { UInt64((ms * 1_000_000).rounded()) }
}
