import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

extension SyntheticResults {
  /// One cell's first frames as a test writes them: ms per run in run order, `nil` for a run
  /// that failed (timed out before its first frame).
  package struct ExplicitCell: Sendable {
    /// The configuration, e.g. `deferred`.
    package var config: String
    /// The condition, e.g. `warm`.
    package var condition: String
    /// `first_frame_observed` of each run, ms; nil for a failed run.
    package var firstFrames: [Double?]

    /// Creates the cell's description.
    package init(config: String, condition: String, firstFrames: [Double?]) {
      self.config = config
      self.condition = condition
      self.firstFrames = firstFrames
    }
  }

  /// Results whose cells have exactly the given first frames (every other phase derived from
  /// them as `record(run:config:condition:firstFrame:rng:)` does), for tests that need known
  /// values: a failed run has no phases and the error a timeout leaves. The settings and host are
  /// `make`'s, with `runTimeoutSeconds` and `app` (the app command, nil for the built camera-app)
  /// as given.
  package static func explicit(
    _ cells: [ExplicitCell], runTimeoutSeconds: Double = 10, app: String? = nil, seed: UInt64 = 42
  ) -> BenchResults {
    var rng = SplitMix64(seed: seed)
    let built = cells.map { cell -> BenchResults.Cell in
      let records = cell.firstFrames.enumerated().map { i, value -> BenchResults.RunRecord in
        guard let value else {
          return BenchResults.RunRecord(
            run: i + 1, ok: false,
            error: "timeout after \(Int(runTimeoutSeconds)) s (last event session.start_running)",
            phases: [:], counts: [:])
        }
        return record(
          run: i + 1, config: cell.config, condition: cell.condition, firstFrame: value, rng: &rng)
      }
      var phases: [String: BenchResults.PhaseSummary] = [:]
      for phase in PhaseName.all {
        let samples = records.filter(\.ok).compactMap { $0.phases[phase] }
        if !samples.isEmpty { phases[phase] = Statistics.summarize(samples) }
      }
      return BenchResults.Cell(
        config: cell.config, condition: cell.condition, camera: "synthetic", runs: records.count,
        failed: records.filter { !$0.ok }.count, phases: phases, records: records)
    }
    var results = make(
      configs: Array(Set(cells.map(\.config))).sorted(),
      conditions: Array(Set(cells.map(\.condition))).sorted(),
      seed: seed, runs: cells.map(\.firstFrames.count).max() ?? 1)
    results.cells = built
    results.settings.runTimeoutSeconds = runTimeoutSeconds
    results.settings.app = app
    return results
  }
}

extension BenchResults.Cell {
  /// Makes `samples` (ms, run order) the cell's values of `phase`: its summary and its records,
  /// one finished run per sample (a record beyond the old ones is new; the old ones keep their
  /// other phases). The cell's runs become `samples.count`, none failed. What the gates and
  /// comparisons read (`rankedSamples(for:)`) is then exactly `samples`.
  package mutating func setSamples(_ samples: [Double], for phase: String) {
    records = samples.enumerated().map { i, value in
      var record =
        i < records.count
        ? records[i] : BenchResults.RunRecord(run: i + 1, ok: true, error: nil, phases: [:], counts: [:])
      record.run = i + 1
      record.ok = true
      record.error = nil
      record.phases[phase] = value
      return record
    }
    runs = samples.count
    failed = 0
    phases[phase] = Statistics.summarize(samples)
  }
}
