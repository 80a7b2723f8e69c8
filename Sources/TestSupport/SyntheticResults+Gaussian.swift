import LaunchContract
import ResultsSchema
import Sampling
import Statistics

extension SyntheticResults {
  /// One cell of ``gaussian(_:runs:seed:)``: `config/condition`, its median first frame (ms), its
  /// noise (the standard deviation as a fraction of the median) and how many of its runs fail.
  package struct GaussianCell: Sendable {
    /// The configuration, e.g. `deferred`.
    package var config: String
    /// The condition, e.g. `warm`.
    package var condition: String
    /// The median first frame, ms.
    package var medianMs: Double
    /// The standard deviation as a fraction of the median (0.02 = 2 %).
    package var noise: Double
    /// Runs that fail without a first frame (the last ones of the cell).
    package var failed: Int

    /// Creates a cell.
    package init(config: String, condition: String = "warm", medianMs: Double, noise: Double, failed: Int = 0)
    {
      self.config = config
      self.condition = condition
      self.medianMs = medianMs
      self.noise = noise
      self.failed = failed
    }
  }

  /// Results whose cells' first frames are Gaussian with known noise (seeded `SplitMix64`, so the
  /// same seed gives the same samples): the samples the gate's power and its sizing are tested on.
  /// Each cell has `runs` runs, its `failed` last ones failed (no phase); records only, no
  /// timelines, no summaries.
  package static func gaussian(_ specs: [GaussianCell], runs: Int, seed: UInt64 = 7) -> BenchResults {
    var rng = SplitMix64(seed: seed)
    var results = make(configs: ["deferred"], conditions: ["warm"], seed: seed, runs: 2)
    results.cells = specs.map { spec in
      let records = (0..<runs).map { i -> BenchResults.RunRecord in
        let value = spec.medianMs * (1 + spec.noise * rng.nextGaussian())
        guard i < runs - spec.failed else {
          return BenchResults.RunRecord(
            run: i + 1, ok: false, error: "timeout after 10 s", phases: [:], counts: [:])
        }
        return BenchResults.RunRecord(
          run: i + 1, ok: true, error: nil, phases: [PhaseName.firstFrameObserved: value], counts: [:])
      }
      return BenchResults.Cell(
        config: spec.config, condition: spec.condition, camera: "synthetic", runs: runs, failed: spec.failed,
        phases: [:], records: records)
    }
    return results
  }
}
