import LaunchContract

/// A launch condition's hold on the machine, in the three steps of the runner's condition loop:
/// 1. ``prepare()`` before the condition's first run: what holds for all its runs (the loaded
///    condition's burners started, `low-power`'s cpufreq cap);
/// 2. ``beginRun(_:interrupted:)`` before each run's spawn: the run's own part (a cold run's
///    eviction, a `low-power` quota's cgroup, a `hot` soak), returned as the run's
///    ``ConditionRunState``, whose ``ConditionRunState/verify(_:into:)`` writes into the run's
///    record whether the condition held for it;
/// 3. ``restore()`` once the condition's runs are over, whichever way they ended (Ctrl-C and
///    SIGTERM end the loop normally).
///
/// A bench killed before it can restore (SIGKILL) leaves the rest to its process guard
/// (``ProcessGuard``, a helper that outlives bench): it kills every process group bench started
/// — the loaded and hot conditions' burners among them, which also die with bench on their own
/// (`PR_SET_PDEATHSIG`, ``CPUBurners``) — and then removes a `low-power` run's cgroup
/// (``RunCgroup``). What the guard cannot undo is written down before it is changed: cpufreq's
/// originals go into their state file before the cap (``CPUFrequencyCap``), and the next bench
/// writes them back before it runs anything, with any run cgroup of a dead bench still there
/// (``LowPowerCleanup/restoreLeftovers(cpufreq:cgroups:)``).
///
/// One control per condition serves every runner of a benchmark (`bench ab`'s two sides cap the
/// machine once and share one set of burners): ``prepare()`` and ``restore()`` may be called
/// again and do nothing the second time.
package protocol LaunchConditionControl: AnyObject, Sendable {
  /// The condition this controls.
  var condition: LaunchCondition { get }

  /// Prepares the machine for the condition's runs; what could not be prepared is in the
  /// returned note (the runs' records say whether the condition held for each).
  func prepare() -> ConditionPreparation

  /// Sets up the condition's part of one run, right before its spawn; nil when `interrupted()`
  /// stopped it (nothing is recorded).
  func beginRun(_ context: ConditionRunContext, interrupted: @Sendable () -> Bool) -> (any ConditionRunState)?

  /// Restores what ``prepare()`` changed.
  func restore()

  /// What the condition needs the whole machine for (`the cpufreq cap`, `full-load burners`,
  /// `the hot soak`), taken under the machine lock (``MachineGate``) from before ``prepare()``
  /// to after ``restore()``; nil when it shares the machine with other benches.
  var machineUse: String? { get }
}

extension LaunchConditionControl {
  /// Shares the machine: nothing machine-wide.
  package var machineUse: String? { nil }
}

/// What ``LaunchConditionControl/prepare()`` did.
package struct ConditionPreparation: Sendable {
  /// A line for the log when the machine could not be prepared as asked; nil when it was.
  package var note: String?
  /// The loaded condition: how many burners run (nil when none could be started).
  package var burners: Int?
  /// Processes the condition started that the thread-states trace should leave out (the
  /// loaded condition's burners): they are load, not the launch, and every switch they make
  /// when another task of the machine runs would be a trace event.
  package var untraced: [Int32] = []

  /// Creates a preparation.
  package init(note: String? = nil, burners: Int? = nil, untraced: [Int32] = []) {
    self.note = note
    self.burners = burners
    self.untraced = untraced
  }
}
