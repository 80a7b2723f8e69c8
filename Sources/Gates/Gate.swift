import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics
/// CI gates: a regression check against a committed baseline, and relative gates between
/// configurations of one run.
///
/// **Baseline gate.** For each gated phase of each cell, the ratio
/// r = median(results)/median(baseline), decided by `baselineStatus`: within 1 + threshold
/// (default 5 %) passes; beyond it **and** two-sided Mann–Whitney p < α (default 0.01) fails;
/// beyond it without p < α is `inconclusive` (more runs would decide), which fails the gate
/// unless `bench gate --inconclusive pass`. Requiring both for `fail` keeps the false-alarm rate
/// low; the A/A simulation test measures it. A cell whose gated phase has no successful runs
/// fails; so does a cell on one side only, or a baseline cell without samples of the phase,
/// unless the cell is optional (`BaselineOptions.optionalCells`: skipped with the reason).
/// Failed runs count twice: in the samples, where each ranks after every finished run
/// (`rankedSamples(for:)`), and in each cell's failure rate, compared with the baseline's
/// (`checkFailureRate`): a rise beyond the allowed one (5 points) or a significant rise fails the gate.
/// Quality is gated the same way (`checkQuality`): a cell whose runs drop frames, show stale
/// frames, miss deadlines or forge events significantly more often than the baseline's fails.
///
/// **Relative gate.** r = median(numerator)/median(denominator) in one condition, failed runs
/// ranked last (a numerator whose median run did not finish has r = +∞). With a
/// `min_ratio`: pass when r ≥ min; fail when the whole bootstrap 95 % CI lies below min (or the
/// bootstrap refused); otherwise `inconclusive` (fails under the default policy). `max_ratio`
/// mirrors it. A NaN or infinite r fails. A missing cell fails ("no preview-only cell in cold") unless the gate
/// is `optional`, when it is skipped with that reason. The full rule is on `GateDefinitions`.
///
/// **The statistic.** Both gates compare through ``Gate/statistic`` (a ``GateStatistic``, chosen
/// in Gate+Statistic.swift): the medians, their ratio, its bootstrap interval and the rank test's
/// p above are ``MedianRatioStatistic``'s, today's one.
public enum Gate {
  /// Settings of the baseline gate.
  public struct BaselineOptions: Sendable, Hashable {
    /// Gated phases, in order.
    public var phases: [String]
    /// Per-phase thresholds as fractions (0.05 = 5 %).
    public var thresholds: [String: Double]
    /// Threshold for phases without their own, as a fraction.
    public var defaultThreshold: Double
    /// Two-sided significance level.
    public var alpha: Double
    /// Bootstrap resamples and seed for the CI.
    public var resamples: Int
    /// The bootstrap's base seed.
    public var seed: UInt64
    /// Cells (`CellKey.name`: `config/condition[@camera]`) that may be missing from one side, or
    /// whose baseline has no samples of a gated phase: such a check is skipped with the reason
    /// instead of failing (`baseline.optional_cells`, `bench gate --optional-cells`).
    public var optionalCells: Set<String> = []
    /// The largest rise in a cell's failure rate over the baseline's that passes, as a fraction of
    /// the runs (0.05 = 5 percentage points): a larger rise fails the gate by itself, significant
    /// or not (`checkFailureRate`).
    public var maxFailureRateRise: Double
    /// The per-run counts whose share of runs is compared with the baseline's, gated like the
    /// failure rate (`checkQuality`); empty: no quality check.
    public var qualityCounts: [CountKey] = Gate.defaultQualityCounts
    /// The noise above which a time check's inconclusive verdict does not fail the gate
    /// (`bench gate --noise-ceiling PCT`, as a fraction; nil: no ceiling): a cell whose
    /// robust noise on either side (`Gate.noise`) is higher fails only when it is slower beyond
    /// the threshold **and** significantly so at α divided by the results' cells (`noisyAlpha`:
    /// there the test's α, not the threshold, bounds the false alarms, so it is split over the
    /// cells a gate run checks); anything short of that is `skipped`, named as not gated to the
    /// threshold at that noise. The nightly sets it to the noise up to which its fixed gate was
    /// measured to meet the goals (docs/gates-and-ci.md).
    public var noiseCeiling: Double? = nil

    /// The defaults: `first_frame_observed`, 5 %, α = 0.01, a failure-rate rise of at most 5 points.
    public init(
      phases: [String] = [PhaseName.firstFrameObserved], thresholds: [String: Double] = [:],
      defaultThreshold: Double = 0.05, alpha: Double = 0.01, resamples: Int = Bootstrap.defaultResamples,
      seed: UInt64 = Bootstrap.defaultSeed, maxFailureRateRise: Double = 0.05
    ) {
      self.phases = phases
      self.maxFailureRateRise = maxFailureRateRise
      self.thresholds = thresholds
      self.defaultThreshold = defaultThreshold
      self.alpha = alpha
      self.resamples = resamples
      self.seed = seed
    }

    /// The significance level a cell above the noise ceiling must reach to fail, among `cells`
    /// cells: α / `cells`.
    public func noisyAlpha(cells: Int) -> Double { alpha / Double(Swift.max(1, cells)) }

    /// The threshold of `phase`, as a fraction.
    public func threshold(for phase: String) -> Double { thresholds[phase] ?? defaultThreshold }

    /// Applies a gates file's `baseline` section (its phases and optional cells are added; CLI
    /// values set later win).
    public mutating func apply(_ section: GateDefinitions.BaselineSection) {
      optionalCells.formUnion(section.optional_cells ?? [])
      if let a = section.alpha { alpha = a }
      if let d = section.default_threshold_pct { defaultThreshold = d / 100 }
      if let rise = section.failure_rate?.max_rise_pct { maxFailureRateRise = rise / 100 }
      for (phase, gate) in (section.phases ?? [:]).sorted(by: { $0.key < $1.key }) {
        if !phases.contains(phase) { phases.append(phase) }
        if let t = gate.threshold_pct { thresholds[phase] = t / 100 }
      }
    }
  }

  /// Why `baseline` should not be compared with `results`: each way it was made differently or
  /// on another machine (`BaselineMatch`). Empty when they match.
  public static func incompatibilities(baseline: BenchResults, results: BenchResults) -> [String] {
    BaselineMatch.differences(baseline: baseline, results: results)
  }

  /// The baseline gate's `fail` for one phase of one cell: slower beyond the threshold
  /// (ratio = median(new)/median(baseline) > 1 + `threshold`) **and** significantly so (two-sided
  /// Mann–Whitney p < `alpha`). `GatePower` measures this rule; `baselineStatus` adds the
  /// `inconclusive` verdict (slower beyond the threshold, not significantly), which fails the
  /// gate under `--inconclusive fail` too.
  public static func isRegression(ratio: Double, pValue: Double, threshold: Double, alpha: Double) -> Bool {
    ratio > 1 + threshold && pValue < alpha
  }

  /// Checks `results` against `baseline` (see the type's documentation).
  public static func checkBaseline(
    _ results: BenchResults, against baseline: BenchResults, options: BaselineOptions
  )
    -> GateReport
  {
    var report = GateReport()
    let baseKeys = Set(baseline.cells.map(CellKey.init))
    for cell in results.orderedCells {
      if let base = baseline.cell(CellKey(cell)) {
        report.outcomes.append(checkFailureRate(cell, against: base, options: options))
        if let quality = checkQuality(cell, against: base, options: options) {
          report.outcomes.append(quality)
        }
      }
    }
    for phase in options.phases {
      for cell in results.orderedCells {
        let key = CellKey(cell)
        let name = "\(phase) \(key.name)"
        guard let base = baseline.cell(key) else {
          report.outcomes.append(
            missing(name: name, phase: phase, key: key, what: "the baseline has no \(key.name) cell", options)
          )
          continue
        }
        let reference = base.rankedSamples(for: phase)
        let current = cell.rankedSamples(for: phase)
        guard !reference.isEmpty else {
          report.outcomes.append(
            missing(
              name: name, phase: phase, key: key,
              what: "the baseline has no \(phase) samples for \(key.name)", options))
          continue
        }
        guard !current.isEmpty else {
          report.outcomes.append(
            GateOutcome(
              kind: .baseline, name: name, status: .fail,
              message: "no successful run measured \(phase) (\(cell.failed) of \(cell.runs) runs failed)",
              phase: phase, referenceMedianMs: Gate.statistic.location(reference)))
          continue
        }
        let seed = options.seed ^ SplitMix64.stableHash("\(key.name)|\(phase)")
        report.merge(
          compare(
            reference, current, name: name, phase: phase, counts: (cell, base), cells: results.cells.count,
            seed: seed, options: options))
      }
      for key in baseKeys.subtracting(results.cells.map(CellKey.init)).sorted() {
        report.outcomes.append(
          missing(
            name: "\(phase) \(key.name)", phase: phase, key: key,
            what: "the results have no \(key.name) cell",
            options))
      }
    }
    return report
  }

  /// Evaluates relative gates on `results` (see the type's documentation).
  public static func checkRelative(
    _ gates: [GateDefinitions.RelativeGate], results: BenchResults,
    resamples: Int = Bootstrap.defaultResamples,
    seed: UInt64 = Bootstrap.defaultSeed
  ) -> [GateOutcome] {
    var out: [GateOutcome] = []
    let cameras = Array(Set(results.cells.map(\.camera))).sorted()
    for gate in gates {
      for camera in cameras.isEmpty ? [results.settings.camera] : cameras {
        let suffix = cameras.count > 1 ? " @\(camera)" : ""
        let name = gate.name + suffix
        let num = results.cell(CellKey(config: gate.numerator, condition: gate.condition, camera: camera))
        let den = results.cell(CellKey(config: gate.denominator, condition: gate.condition, camera: camera))
        let missing = [(gate.numerator, num), (gate.denominator, den)].filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty, let num, let den else {
          let what = missing.map { "no \($0) cell" }.joined(separator: " and ")
          let optional = gate.optional == true
          out.append(
            GateOutcome(
              kind: .relative, name: name, status: optional ? .skipped : .fail,
              message: optional
                ? "skipped: \(what) in \(gate.condition) (the gate is optional)"
                : "\(what) in \(gate.condition): the gate's cells were not run (run bench with"
                  + " --configs \(gate.numerator),\(gate.denominator) --conditions \(gate.condition), or mark"
                  + " the gate \"optional\": true)",
              phase: gate.phase, limit: gate.min_ratio ?? gate.max_ratio))
          continue
        }
        let sn = num.rankedSamples(for: gate.phase)
        let sd = den.rankedSamples(for: gate.phase)
        let finished = (sn.contains(where: \.isFinite), sd.contains(where: \.isFinite))
        guard finished.0, finished.1 else {
          let empty = finished.0 ? gate.denominator : gate.numerator
          out.append(
            GateOutcome(
              kind: .relative, name: name, status: .fail,
              message: "no successful \(empty)/\(gate.condition) run measured \(gate.phase)",
              phase: gate.phase,
              limit: gate.min_ratio ?? gate.max_ratio))
          continue
        }
        let (status, r) = relativeStatus(
          gate, numerator: sn, denominator: sd, resamples: resamples,
          seed: seed ^ SplitMix64.stableHash("\(gate.name)|\(camera)"))
        let bounds =
          (gate.min_ratio.map { ["≥ \(NumberFormat.ratio($0))"] } ?? [])
          + (gate.max_ratio.map { ["≤ \(NumberFormat.ratio($0))"] } ?? [])
        let noRatio = noRatioReason(r)
        var message =
          "\(gate.numerator)/\(gate.denominator) \(gate.phase) in \(gate.condition) = \(NumberFormat.ratio(r.ratio))"
          + " (95 % CI \(NumberFormat.ci(r.ci95))), required \(bounds.joined(separator: " and "));"
          + " \(Gate.statistic.locationName)s \(NumberFormat.ms(r.newMedian)) ms / \(NumberFormat.ms(r.referenceMedian)) ms, \(NumberFormat.p(r.pValue)),"
          + " n = \(r.newCount) / \(r.referenceCount)"
        if let noRatio {
          message += "; " + noRatio
        } else if status == .fail && r.ci95.isRefused {
          message += "; the bootstrap refused, so nothing shows the bound might still hold"
        }
        if status == .inconclusive { message += "; the CI still includes the bound: more runs would decide" }
        out.append(
          GateOutcome(
            kind: .relative, name: name, status: status, message: message, phase: gate.phase,
            referenceMedianMs: r.referenceMedian, medianMs: r.newMedian, ratio: r.ratio, ci95: r.ci95.array,
            pValue: r.pValue, limit: gate.min_ratio ?? gate.max_ratio))
      }
    }
    return out
  }

  /// One relative gate's decision on its two cells' samples (ms, a failed run `+∞`), with the
  /// comparison it rests on: a violated bound fails when the whole bootstrap CI is beyond it, or
  /// when there is no CI (the bootstrap refused), otherwise it is inconclusive; no finite ratio
  /// fails. `checkRelative` and `RelativeGatePower` decide with it.
  public static func relativeStatus(
    _ gate: GateDefinitions.RelativeGate, numerator sn: [Double], denominator sd: [Double], resamples: Int,
    seed: UInt64
  ) -> (GateOutcome.Status, SampleComparison) {
    let r = Gate.statistic.compare(
      reference: sd, new: sn, threshold: 0, alpha: 0.05, resamples: resamples, seed: seed)
    var status = GateOutcome.Status.pass
    if let lo = gate.min_ratio, r.ratio < lo {
      status = r.ci95.isRefused || r.ci95.upper < lo ? .fail : .inconclusive
    }
    if let hi = gate.max_ratio, r.ratio > hi {
      status = r.ci95.isRefused || r.ci95.lower > hi ? .fail : (status == .fail ? .fail : .inconclusive)
    }
    if noRatioReason(r) != nil { status = .fail }
    return (status, r)
  }
}
