import Statistics

/// One series of the history: one machine × camera × cell × setup × phase, one point per
/// benchmark in time order. Two machines are never mixed in one series, nor two setups (another
/// cost profile, display, app command, set of outputs or thread-states method: ``HistorySetup``).
package struct HistorySeries: Sendable, Hashable {
  /// What the series is of.
  package struct Key: Sendable, Hashable, Comparable {
    /// The machine's fingerprint.
    package var machine: String
    /// Its host name (from the latest benchmark).
    package var hostname: String
    /// The camera.
    package var camera: String
    /// The condition.
    package var condition: String
    /// The configuration.
    package var config: String
    /// What else the cell measured: profile, display, app, outputs, thread states.
    package var setup: HistorySetup = .unknown
    /// The phase.
    package var phase: String
    /// The fields of `setup` that tell this series from the others of its machine, camera, cell
    /// and phase (`profile fnv1a64:…, display x11`); "" when it is the only one.
    package var distinction = ""

    /// `condition/config`.
    package var cell: String { "\(condition)/\(config)" }

    /// Ordered by host name, machine, camera, condition, configuration, phase and setup.
    package static func < (l: Key, r: Key) -> Bool {
      if (l.hostname, l.machine, l.camera, l.condition, l.config, l.phase)
        != (r.hostname, r.machine, r.camera, r.condition, r.config, r.phase)
      {
        return (l.hostname, l.machine, l.camera, l.condition, l.config, l.phase)
          < (r.hostname, r.machine, r.camera, r.condition, r.config, r.phase)
      }
      return l.setup < r.setup
    }
  }

  /// One benchmark's value in the series.
  package struct Point: Sendable, Hashable {
    /// The benchmark's id in the store.
    package var benchmark: Int64
    /// Its commit.
    package var commit: String
    /// Its branch (may be empty).
    package var branch: String
    /// When it ran (UTC, ISO 8601).
    package var time: String
    /// The median of the phase over the cell's ok runs that had it, ms; NaN when none did.
    package var median: Double
    /// The median's 95 % distribution-free interval (`Statistics.medianInterval`), ms.
    package var interval: ConfidenceInterval
    /// The ok runs that had the phase.
    package var samples: Int
    /// The cell's counted runs.
    package var runs: Int
    /// Of them, how many failed.
    package var failed: Int
  }

  /// What the series is of.
  package var key: Key
  /// Its points, oldest first.
  package var points: [Point]

  /// The series in `benchmarks` (oldest first, as a store returns them): one per machine ×
  /// camera × cell × setup (from the benchmark's settings) × phase seen in the runs, sorted by key. A benchmark whose cell had no ok run
  /// with a phase the series has elsewhere (every run failed) is still a point: its median is
  /// NaN, and its failed runs are counted.
  package static func build(_ benchmarks: [HistoryBenchmark]) -> [HistorySeries] {
    var summaries: [CellSummary] = []
    for b in benchmarks {
      let settings = HistorySetup.Settings(json: b.settings)
      for cell in b.cells {
        var summary = CellSummary(
          benchmark: b.id, commit: b.commit, branch: b.branch, time: b.time, machine: b.machine,
          hostname: b.hostname, camera: cell.camera, condition: cell.condition, config: cell.config,
          runs: cell.runs, failed: cell.failed)
        summary.setup = HistorySetup(settings, condition: cell.condition, config: cell.config)
        var values: [String: [Double]] = [:]
        for run in cell.records where run.ok {
          for (phase, ms) in run.phases { values[phase, default: []].append(ms) }
        }
        summary.phases = values.mapValues(PhaseValue.init)
        summaries.append(summary)
      }
    }
    return build(summaries: summaries)
  }
}
