import Statistics

extension HistorySeries {
  /// One benchmark's cell reduced to what its series points need: the benchmark, the cell, and
  /// each phase's median over the cell's ok runs. A store that reads many runs (`SQLiteHistoryStore`)
  /// makes these as it reads, without keeping the runs.
  package struct CellSummary: Sendable, Hashable {
    /// The benchmark's id in the store.
    package var benchmark: Int64
    /// Its commit.
    package var commit: String
    /// Its branch (may be empty).
    package var branch: String
    /// When it ran (UTC, ISO 8601).
    package var time: String
    /// The machine's fingerprint.
    package var machine: String
    /// The machine's host name.
    package var hostname: String
    /// The camera.
    package var camera: String
    /// The condition.
    package var condition: String
    /// The configuration.
    package var config: String
    /// What else it measured (``HistorySetup``, from the benchmark's settings).
    package var setup: HistorySetup = .unknown
    /// The cell's counted runs.
    package var runs: Int
    /// Of them, how many failed.
    package var failed: Int
    /// Each phase that an ok run of the cell had → its median, interval and sample count.
    package var phases: [String: PhaseValue] = [:]

    /// Creates a summary without phases.
    package init(
      benchmark: Int64, commit: String, branch: String, time: String, machine: String, hostname: String,
      camera: String, condition: String, config: String, runs: Int, failed: Int
    ) {
      self.benchmark = benchmark
      self.commit = commit
      self.branch = branch
      self.time = time
      self.machine = machine
      self.hostname = hostname
      self.camera = camera
      self.condition = condition
      self.config = config
      self.runs = runs
      self.failed = failed
    }
  }

  /// One phase of a cell: the median of its ok runs' values and that median's interval.
  package struct PhaseValue: Sendable, Hashable {
    /// The median, ms.
    package var median: Double
    /// Its 95 % distribution-free interval (`Statistics.medianInterval`), ms.
    package var interval: ConfidenceInterval
    /// The ok runs that had the phase.
    package var samples: Int

    /// The value of the samples `values` (ms; at least one).
    package init(_ values: [Double]) {
      median = Statistics.median(values)
      interval = Statistics.medianInterval(values)
      samples = values.count
    }
  }

  /// The series of `cells` (oldest benchmark first): one per machine × camera × cell × setup ×
  /// phase, sorted by key, as `build(_:)` describes; each key says what tells it from the other
  /// setups of its machine, camera, cell and phase (``Key/distinction``).
  package static func build(summaries cells: [CellSummary]) -> [HistorySeries] {
    var series: [Key: [Point]] = [:]
    var hostnames: [String: String] = [:]
    var phasesOfCell: [Key: Set<String>] = [:]  // the key with an empty phase → phases seen
    for cell in cells { phasesOfCell[key(cell, phase: ""), default: []].formUnion(cell.phases.keys) }
    let none = PhaseValue.none
    for cell in cells {
      hostnames[cell.machine] = cell.hostname
      for phase in phasesOfCell[key(cell, phase: "")] ?? [] {
        let value = cell.phases[phase] ?? none
        series[key(cell, phase: phase), default: []].append(
          Point(
            benchmark: cell.benchmark, commit: cell.commit, branch: cell.branch, time: cell.time,
            median: value.median, interval: value.interval, samples: value.samples, runs: cell.runs,
            failed: cell.failed))
      }
    }
    var setups: [Key: [HistorySetup]] = [:]  // the key without its setup → the setups
    for key in series.keys { setups[unset(key), default: []].append(key.setup) }
    let distinctions = setups.mapValues(HistorySetup.distinguishing)
    return series.map { key, points in
      var named = key
      named.hostname = hostnames[key.machine] ?? ""
      named.distinction = distinctions[unset(key)]?[key.setup] ?? ""
      return HistorySeries(key: named, points: points)
    }.sorted { $0.key < $1.key }
  }

  /// The key of `cell` for `phase` (the host name is filled in at the end).
  private static func key(_ cell: CellSummary, phase: String) -> Key {
    Key(
      machine: cell.machine, hostname: "", camera: cell.camera, condition: cell.condition,
      config: cell.config, setup: cell.setup, phase: phase)
  }

  /// `key` with the unknown setup: what series that differ only in setup share.
  private static func unset(_ key: Key) -> Key {
    var shared = key
    shared.setup = .unknown
    return shared
  }
}

extension HistorySeries.PhaseValue {
  /// No ok run had the phase: NaN median and interval, no samples.
  static let none = HistorySeries.PhaseValue([])
}
