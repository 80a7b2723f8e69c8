import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

/// The baseline gate's false-alarm rate and power, measured by resampling real runs
/// (`Benchmarks/gate-power`, `bench power`), under the rule CI runs.
///
/// Method: for each cell with at least 2 × `runsPerSide` counted runs of the phase (failed runs
/// included, as +∞: `rankedSamples`), `comparisons` times, the runs are shuffled (`SplitMix64`)
/// and split into two disjoint halves of `runsPerSide`: "baseline" and "new". Each comparison is
/// decided the way `bench gate --baseline` decides one check (``Rule``: `Gate.baselineStatus`,
/// then `Gate.fails` under the inconclusive policy, `fail` by default as in CI).
/// - **A/A**: the two halves as they are. Both come from one distribution, so every failure is a
///   false alarm. Counted per cell and **family-wise**: comparison i of every cell together make
///   one gate run over all the cells, which raises a false alarm when any of them fails — what a
///   healthy commit meets in CI, which gates every cell at once.
/// - **Shifted**: the same split with every "new" run multiplied by 1 + s (a launch s slower),
///   for each shift s; the share of comparisons the gate fails is its power at s.
///
/// The halves come from one interleaved `bench` invocation, so drift between a baseline and a
/// later run (another boot, another machine) is not in them: these figures are the gate's own,
/// under the noise of the runs themselves. Splits of one set of runs overlap, so the comparisons
/// are not independent trials: the binomial bounds quoted with them are nominal.
///
/// **Across sessions** (`baseline:`, `bench power --against`): each comparison draws its
/// "baseline" runs from a cell of one recording and its "new" runs from the same cell of another,
/// made at another time — what `scripts/nightly`'s `GATE=baseline` meets, a stored baseline
/// against tonight's runs, with whatever drifted between the two sessions in the A/A. One pair
/// of sessions is one draw of that drift: the figures say how this pair behaves, not every pair.
public enum GatePower {
  /// The shifts measured by default: 1 % to 20 % in steps of 1 %, then 25 %…100 % (so a noisy
  /// machine's smallest shift caught is still found).
  public static let defaultShifts: [Double] =
    (1...20).map { Double($0) / 100 } + [25, 30, 35, 40, 50, 60, 80, 100].map { Double($0) / 100 }

  /// Comparisons per cell by default: enough that no false alarm in all of them shows a rate
  /// ≤ 0.3 % (95 % upper bound), where 250 showed only ≤ 1.2 %.
  public static let defaultComparisons = 1000

  /// The decision one comparison gets: `bench gate --baseline`'s for one check.
  public struct Rule: Sendable, Hashable {
    /// The threshold, as a fraction (0.05 = 5 %).
    public var threshold: Double
    /// The significance level.
    public var alpha: Double
    /// What an inconclusive check counts as.
    public var inconclusive: Gate.InconclusivePolicy
    /// The noise ceiling (`Gate.BaselineOptions.noiseCeiling`): above it, an inconclusive check
    /// passes whatever `inconclusive` says, and a failure needs p < `noisyAlpha`.
    public var noiseCeiling: Double?
    /// The significance level above the ceiling (`Gate.BaselineOptions.noisyAlpha(cells:)`).
    public var noisyAlpha: Double

    /// Creates the rule.
    public init(
      threshold: Double, alpha: Double, inconclusive: Gate.InconclusivePolicy, noiseCeiling: Double? = nil,
      noisyAlpha: Double? = nil
    ) {
      self.threshold = threshold
      self.alpha = alpha
      self.inconclusive = inconclusive
      self.noiseCeiling = noiseCeiling
      self.noisyAlpha = noisyAlpha ?? alpha
    }

    /// How a check between these two samples is decided: `inconclusive` at `alpha`, or, when
    /// either side is noisier than the ceiling, an inconclusive check passing at `noisyAlpha`. A
    /// uniform shift of a side keeps its noise, so one decision serves every shift.
    public func decision(baseline: [Double], new: [Double]) -> (Gate.InconclusivePolicy, Double) {
      Gate.aboveNoiseCeiling(noiseCeiling, reference: baseline, new: new)
        ? (.pass, noisyAlpha) : (inconclusive, alpha)
    }

    /// True when the gate fails `new` against `baseline` (samples in ms, +∞ for a failed run), as
    /// `bench gate --baseline` decides one check: ``Gate/statistic``'s
    /// ``GateStatistic/baselineFails(reference:new:threshold:alpha:inconclusive:)``, decided as
    /// `decision` says (default: ``decision(baseline:new:)``).
    public func fails(
      baseline: [Double], new: [Double], decision: (Gate.InconclusivePolicy, Double)? = nil
    ) -> Bool {
      let (policy, alpha) = decision ?? self.decision(baseline: baseline, new: new)
      return Gate.statistic.baselineFails(
        reference: baseline, new: new, threshold: threshold, alpha: alpha, inconclusive: policy)
    }
  }

  /// Measures the gate (`Gate.BaselineOptions`' threshold for `phase` and α, inconclusive checks
  /// counted as `inconclusive` says) on every cell of `results` with at least 2 × `runsPerSide`
  /// counted runs of `phase`.
  /// With `baseline`, the "baseline" side of each comparison is drawn from that recording's cell
  /// of the same condition and configuration, the "new" side from `results`' (each cell needs
  /// `runsPerSide` counted runs on each side; cells either lacks are skipped).
  public static func measure(
    _ results: BenchResults, against baseline: BenchResults? = nil,
    phase: String = PhaseName.firstFrameObserved, runsPerSide: Int = 20,
    comparisonsPerCell: Int = defaultComparisons, shifts: [Double] = defaultShifts,
    options: Gate.BaselineOptions = Gate.BaselineOptions(), inconclusive: Gate.InconclusivePolicy = .fail,
    seed: UInt64 = 0x6A7E_B0E7
  ) -> Report {
    let rule = Rule(
      threshold: options.threshold(for: phase), alpha: options.alpha, inconclusive: inconclusive,
      noiseCeiling: options.noiseCeiling, noisyAlpha: options.noisyAlpha(cells: results.cells.count))
    var report = Report(
      phase: phase, runsPerSide: runsPerSide, comparisonsPerCell: comparisonsPerCell, alpha: rule.alpha,
      threshold: rule.threshold, inconclusive: inconclusive, noiseCeiling: options.noiseCeiling, seed: seed,
      cells: [], skipped: [],
      familyComparisons: 0, familyFalseAlarms: 0, measuredOn: measuredOn(results),
      baselineMeasuredOn: baseline.map(measuredOn))
    var familyAlarm = [Bool](repeating: false, count: comparisonsPerCell)
    for cell in results.orderedCells {
      let name = "\(cell.condition)/\(cell.config)"
      let samples = cell.rankedSamples(for: phase)
      var reference: [Double]? = nil
      if let baseline {
        guard let other = baseline.cell(CellKey(cell)) else {
          report.skipped.append("\(name): not in the baseline")
          continue
        }
        let drawn = other.rankedSamples(for: phase)
        guard runsPerSide >= 2, samples.count >= runsPerSide, drawn.count >= runsPerSide else {
          report.skipped.append(
            "\(name): \(drawn.count) counted runs in the baseline and \(samples.count) in the results,"
              + " fewer than \(runsPerSide) on a side")
          continue
        }
        reference = drawn
      } else {
        guard runsPerSide >= 2, samples.count >= 2 * runsPerSide else {
          report.skipped.append("\(name): \(samples.count) counted runs, fewer than 2 × \(runsPerSide)")
          continue
        }
      }
      let (power, alarms) = measureCell(
        name: name, samples: samples, baselineSamples: reference, runsPerSide: runsPerSide,
        comparisons: comparisonsPerCell, shifts: shifts, rule: rule, seed: seed)
      report.cells.append(power)
      for (i, alarm) in alarms.enumerated() where alarm { familyAlarm[i] = true }
    }
    if !report.cells.isEmpty {
      report.familyComparisons = comparisonsPerCell
      report.familyFalseAlarms = familyAlarm.filter { $0 }.count
    }
    return report
  }

  /// One cell's figures, and which of its A/A comparisons raised a false alarm (in order, for the
  /// family-wise count). Without `baselineSamples` both sides are disjoint halves of `samples`;
  /// with them, the baseline side is `runsPerSide` of those and the new side `runsPerSide` of
  /// `samples`, each drawn without replacement.
  static func measureCell(
    name: String, samples: [Double], baselineSamples: [Double]? = nil, runsPerSide: Int, comparisons: Int,
    shifts: [Double], rule: Rule, seed: UInt64
  ) -> (CellPower, [Bool]) {
    var rng = SplitMix64(seed: seed ^ SplitMix64.stableHash(name))
    var alarms: [Bool] = []
    alarms.reserveCapacity(comparisons)
    var caught = [Int](repeating: 0, count: shifts.count)
    var order = Array(samples.indices)
    var referenceOrder = Array((baselineSamples ?? []).indices)
    for _ in 0..<comparisons {
      rng.shuffle(&order)
      let baseline: [Double]
      let new: [Double]
      if let baselineSamples {
        rng.shuffle(&referenceOrder)
        baseline = referenceOrder[0..<runsPerSide].map { baselineSamples[$0] }
        new = order[0..<runsPerSide].map { samples[$0] }
      } else {
        baseline = order[0..<runsPerSide].map { samples[$0] }
        new = order[runsPerSide..<(2 * runsPerSide)].map { samples[$0] }
      }
      let decision = rule.decision(baseline: baseline, new: new)
      alarms.append(rule.fails(baseline: baseline, new: new, decision: decision))
      for (k, shift) in shifts.enumerated()
      where rule.fails(baseline: baseline, new: new.map { $0 * (1 + shift) }, decision: decision) {
        caught[k] += 1
      }
    }
    let finished = samples.filter(\.isFinite)
    let median = Statistics.median(finished)
    let power = CellPower(
      cell: name, runs: samples.count, failedRuns: samples.count - finished.count, medianMs: median,
      noiseFraction: Gate.noise(finished),
      aaComparisons: comparisons, aaFalseAlarms: alarms.filter { $0 }.count,
      shifts: zip(shifts, caught).map { ShiftPower(shift: $0, comparisons: comparisons, caught: $1) })
    return (power, alarms)
  }

  /// Where the runs came from: when `bench` started them (`settings.startedAt`), the host, its CPU
  /// count and kernel, the camera and profile.
  static func measuredOn(_ results: BenchResults) -> String {
    "\(results.settings.startedAt), \(results.host.hostname), \(results.host.cpus) CPUs, kernel"
      + " \(results.host.kernel), camera \(results.settings.camera), profile"
      + " \(results.settings.profileName ?? "(none)")"
  }
}
