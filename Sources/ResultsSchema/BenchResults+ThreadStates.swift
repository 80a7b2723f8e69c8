extension BenchResults {
  /// Where the launch's threads spent each phase of one run, from the kernel's scheduler events
  /// (`tracefs`) or from `/proc` totals sampled at bench's events (`sampled`) — `RunRecord.threadStates`,
  /// written as `thread_states`. The JSON names are snake_case: other tools read them (issue 27).
  /// Absent when the run was made with `--thread-states off` or by a bench without the instrument.
  public struct ThreadStatesRecord: Codable, Sendable, Hashable {
    /// `tracefs` (exact: every scheduler event of the process tree) or `sampled` (`/proc`
    /// totals read at spawn, at each event bench received and at the end).
    public var method: String
    /// Events the kernel dropped from this run's buffer (its `overrun` and `dropped_events`);
    /// more than 0 makes the run's breakdown incomplete.
    public var lostEvents: Int
    /// Whether the breakdown misses time it should account for: events were lost, the trace
    /// started late or ended early. An incomplete run is kept, never summed with complete ones.
    public var incomplete: Bool
    /// `sampled` only: the largest error of a sampled figure, ms — the longest gap between two
    /// samples a phase boundary fell in. Absent for `tracefs`.
    public var errorBoundMs: Double?
    /// Scheduler events recorded for the run (`tracefs`) or samples taken (`sampled`).
    public var events: Int
    /// Bytes of trace the run produced (`tracefs`); absent for `sampled`.
    public var traceBytes: Int?
    /// `tracefs` only: the main ring buffer's size per CPU during the run, KiB — 4096 at the
    /// start, grown for later runs when a run came near filling it (another tracer on the
    /// machine can multiply the events). Absent for `sampled` and in older results.
    public var bufferKBPerCPU: Int?
    /// The app's main thread (the launched process's first thread), phase → its states. For
    /// `tracefs` the four states sum to the phase's duration within 1 ms.
    public var main: [String: MainThreadStates]
    /// The app's whole process tree (every thread of the launched process and of its
    /// descendants, followed through fork and exec), phase → totals.
    public var tree: [String: TreeStates]
    /// The thread that was on a CPU of the app's tree (else any thread traced) when the probe
    /// saw the first live frame; absent when no frame was seen or no event says.
    public var runningAtFirstFrame: ThreadIdentity?
    /// `tracefs` only: the events of ``events`` recorded up to the probe's first live frame (from
    /// tracing on, just before the spawn): the ones whose recording could delay
    /// `first_frame_observed`. Absent without a first frame, for `sampled`, and in older results.
    public var eventsToFirstFrame: Int?
    /// `tracefs` only: bench's own time with the instrument for this run, ms, on its clock
    /// (``InstrumentTime``); absent for `sampled` and in older results.
    public var benchMs: InstrumentTime?
    /// Bench's own threads (the process whose thread group is bench's pid: the probe's
    /// compositor, the feeder, the `/proc` sampler, …), phase → totals summed over them, with the
    /// tree's field names. They compete with the app for the machine's CPUs. Absent in records
    /// made by a bench before these figures (issue 27).
    public var bench: [String: TreeStates]?
    /// The display server's threads, phase → totals, with the tree's field names: the private
    /// Xvfb of `--display x11`, the server of `--display x11:NAME` when its lock file names its
    /// pid, or the private compositor of `--display wayland` (sway) or `wayland-cage` (cage).
    /// Which one it was is the benchmark's `settings.display`. Absent on the shared-memory path
    /// and when bench cannot know the server's pid (`wayland:SOCKET`, a remote X display). Written
    /// `display_server`; results written before issue 36 item 5 named it `x_server`, which reads
    /// here too.
    public var displayServer: [String: TreeStates]?
    /// `tracefs` only: switches out of a tree thread, within the phases, whose switch in the
    /// trace lacks and no `sched_stat_runtime` placed — this kernel leaves switches out of the
    /// idle task out of the trace on some CPUs (``recoveredSwitchIns`` are the placed ones).
    /// Absent for `sampled` and in older results.
    public var unseenSwitchIns: Int?
    /// `tracefs` only: the time, ms within the phases, before those switches that the breakdown
    /// counted in another state (runnable after a wakeup or a preemption, mostly) though part of
    /// it was running: an upper bound on the running time `tree` and `main` count elsewhere.
    public var unseenMs: Double?
    /// `tracefs` only: switches into a tree thread, within the phases, that the trace lacked
    /// and the breakdown placed from the thread's next `sched_stat_runtime` (its time less the
    /// CPU time it counts since the switch in). Absent for `sampled` and in older results.
    public var recoveredSwitchIns: Int?

    enum CodingKeys: String, CodingKey {
      case method, lostEvents = "lost_events", incomplete, errorBoundMs = "error_bound_ms", events
      case traceBytes = "trace_bytes", main, tree, runningAtFirstFrame = "running_at_first_frame"
      case eventsToFirstFrame = "events_to_first_frame", benchMs = "bench_ms"
      case bench, displayServer = "display_server", unseenSwitchIns = "unseen_switch_ins", unseenMs =
        "unseen_ms"
      case recoveredSwitchIns = "recovered_switch_ins", bufferKBPerCPU = "buffer_kb_per_cpu"
    }

    /// Creates a record.
    public init(
      method: String, lostEvents: Int, incomplete: Bool, errorBoundMs: Double? = nil, events: Int,
      traceBytes: Int? = nil, main: [String: MainThreadStates], tree: [String: TreeStates],
      runningAtFirstFrame: ThreadIdentity? = nil, bench: [String: TreeStates]? = nil,
      displayServer: [String: TreeStates]? = nil
    ) {
      self.method = method
      self.lostEvents = lostEvents
      self.incomplete = incomplete
      self.errorBoundMs = errorBoundMs
      self.events = events
      self.traceBytes = traceBytes
      self.main = main
      self.tree = tree
      self.runningAtFirstFrame = runningAtFirstFrame
      self.bench = bench
      self.displayServer = displayServer
    }
  }

  /// What the `tracefs` instrument cost bench in one run, ms (CLOCK_MONOTONIC, measured around
  /// each step): none of it falls inside a phase — `begin` comes before the spawn, `end` and
  /// `parse` after the run has settled — so it lengthens the benchmark, not the launch.
  public struct InstrumentTime: Codable, Sendable, Hashable {
    /// Before the spawn: clearing the ring buffer and turning tracing on, ms.
    public var begin: Double
    /// After the run settled: tracing off, the per-CPU stats and the trace text read, ms.
    public var end: Double
    /// Parsing the trace text and making the breakdown (``ThreadStatesRecord``), ms.
    public var parse: Double

    /// Creates the three times, ms.
    public init(begin: Double, end: Double, parse: Double) {
      self.begin = begin
      self.end = end
      self.parse = parse
    }
  }

  /// One phase of the main thread, ms: on a CPU, runnable but waiting for one, in uninterruptible
  /// sleep (I/O, page faults from disk: `D`), and sleeping (every other wait: `S`, stopped, …).
  public struct MainThreadStates: Codable, Sendable, Hashable {
    /// On a CPU, ms.
    public var running: Double
    /// Runnable, waiting for a CPU (woken or preempted, not yet switched in), ms.
    public var runnable: Double
    /// Uninterruptible sleep (`D`: disk I/O, page faults served from disk), ms.
    public var io: Double
    /// Every other wait (`S` and the rest), ms.
    public var sleeping: Double

    /// Creates the states of one phase.
    public init(running: Double, runnable: Double, io: Double, sleeping: Double) {
      self.running = running
      self.runnable = runnable
      self.io = io
      self.sleeping = sleeping
    }

    /// The four states' sum, ms: the phase's duration when the record is exact.
    public var total: Double { running + runnable + io + sleeping }
  }

  /// One phase of the whole process tree: time summed over its threads, and event counts.
  public struct TreeStates: Codable, Sendable, Hashable {
    /// CPU time of every thread, ms.
    public var cpuMs: Double
    /// Time threads were runnable and waited for a CPU, ms.
    public var runqueueMs: Double
    /// Time threads were in uninterruptible sleep, ms.
    public var ioMs: Double
    /// Major page faults (served from disk).
    public var majorFaults: Int
    /// Minor page faults.
    public var minorFaults: Int
    /// Switches out of a thread that gave up its CPU (it blocked or slept).
    public var voluntarySwitches: Int
    /// Switches out of a thread that was still runnable (preempted).
    public var involuntarySwitches: Int

    enum CodingKeys: String, CodingKey {
      case cpuMs = "cpu_ms", runqueueMs = "runqueue_ms", ioMs = "io_ms", majorFaults = "major_faults"
      case minorFaults = "minor_faults", voluntarySwitches = "voluntary_switches"
      case involuntarySwitches = "involuntary_switches"
    }

    /// Creates the totals of one phase.
    public init(
      cpuMs: Double, runqueueMs: Double, ioMs: Double, majorFaults: Int, minorFaults: Int,
      voluntarySwitches: Int, involuntarySwitches: Int
    ) {
      self.cpuMs = cpuMs
      self.runqueueMs = runqueueMs
      self.ioMs = ioMs
      self.majorFaults = majorFaults
      self.minorFaults = minorFaults
      self.voluntarySwitches = voluntarySwitches
      self.involuntarySwitches = involuntarySwitches
    }
  }

  /// A thread, as the scheduler named it.
  public struct ThreadIdentity: Codable, Sendable, Hashable {
    /// Its process (thread group) id.
    public var pid: Int
    /// Its thread id.
    public var tid: Int
    /// Its `comm` (at most 15 bytes, as the kernel keeps it).
    public var name: String

    /// Creates an identity.
    public init(pid: Int, tid: Int, name: String) {
      self.pid = pid
      self.tid = tid
      self.name = name
    }
  }
}
