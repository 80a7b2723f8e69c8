/// One benchmark as the history database keeps it: one results file, recorded once, with the
/// commit it measured and the machine it ran on. Durations are milliseconds (`CLOCK_MONOTONIC`).
package struct HistoryBenchmark: Sendable, Hashable {
  /// The store's own id (0 before it is recorded).
  package var id: Int64 = 0
  /// What makes recording idempotent: `fnv1a64:` and 16 hex digits over the results' canonical
  /// JSON (host, settings and cells, keys sorted, run timelines left out).
  package var contentHash: String
  /// The commit of the code measured (`--commit`, else the one results.json records).
  package var commit: String
  /// The branch it was on (`--branch`); empty when not given.
  package var branch: String
  /// When the benchmark ran: UTC, ISO 8601 to the second (`--time`, else `settings.startedAt`).
  package var time: String
  /// The machine's fingerprint (`HistoryMachine`): series are never mixed across it.
  package var machine: String
  /// The machine's host name, for people.
  package var hostname: String
  /// The bench version that wrote the results (`tool.version`).
  package var toolVersion: String
  /// The results' `settings`, as JSON (keys sorted).
  package var settings: String
  /// The cells, in the results' order.
  package var cells: [HistoryCell]

  /// Creates a benchmark.
  package init(
    contentHash: String, commit: String, branch: String, time: String, machine: String, hostname: String,
    toolVersion: String, settings: String, cells: [HistoryCell]
  ) {
    self.contentHash = contentHash
    self.commit = commit
    self.branch = branch
    self.time = time
    self.machine = machine
    self.hostname = hostname
    self.toolVersion = toolVersion
    self.settings = settings
    self.cells = cells
  }
}

/// One cell of a recorded benchmark: a condition × configuration on one camera, with every run.
package struct HistoryCell: Sendable, Hashable {
  /// `cold`, `warm`, `relock` or `loaded`.
  package var condition: String
  /// `deferred`, `eager`, `manual`, `preview-only` or a named app configuration.
  package var config: String
  /// `synthetic` or `v4l2:/dev/videoN`.
  package var camera: String
  /// Counted runs attempted.
  package var runs: Int
  /// Of them, how many failed.
  package var failed: Int
  /// Every counted run, in run order (a store may load only the phases asked for).
  package var records: [HistoryRun]

  /// `condition/config`, as `--cell` names it.
  package var name: String { "\(condition)/\(config)" }

  /// Creates a cell.
  package init(
    condition: String, config: String, camera: String, runs: Int, failed: Int, records: [HistoryRun]
  ) {
    self.condition = condition
    self.config = config
    self.camera = camera
    self.runs = runs
    self.failed = failed
    self.records = records
  }
}

/// One run of a recorded cell.
package struct HistoryRun: Sendable, Hashable {
  /// 1-based run number within the cell.
  package var run: Int
  /// Whether the run counted (results.json's `ok`).
  package var ok: Bool
  /// Why it failed, when it did.
  package var error: String?
  /// Phase name → duration, ms.
  package var phases: [String: Double]
  /// Event counts (`stale_frames`, …).
  package var counts: [String: Int]

  /// Creates a run.
  package init(
    run: Int, ok: Bool, error: String? = nil, phases: [String: Double], counts: [String: Int] = [:]
  ) {
    self.run = run
    self.ok = ok
    self.error = error
    self.phases = phases
    self.counts = counts
  }
}
