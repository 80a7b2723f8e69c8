import LaunchContract
import ResultsSchema
import Sampling

/// The baseline gate's false-alarm rate and power, measured by resampling real runs
/// (`Benchmarks/gate-power`, `bench power`).
///
/// Method: for each cell with at least 2 × `runsPerSide` ok runs of the phase, `comparisons`
/// times, the runs are shuffled (`SplitMix64`) and split into two disjoint halves of
/// `runsPerSide`: "baseline" and "new".
/// - **A/A**: the gate's rule (`Gate.isRegression`: ratio of medians > 1 + threshold and
///   Mann–Whitney p < α) on the two halves as they are. Both come from one distribution, so every
///   failure is a false alarm.
/// - **Shifted**: the same split with every "new" run multiplied by 1 + s (a launch s slower),
///   for each shift s; the share of comparisons the gate fails is its power at s.
///
/// The halves come from one interleaved `bench` invocation, so drift between a baseline and a
/// later run (another boot, another machine) is not in them: these figures are the gate's own,
/// under the noise of the runs themselves.
public enum GatePower {
  /// What the measurement found.
  public struct Report: Sendable, Hashable, Codable {
    /// The phase measured, e.g. `first_frame_observed`.
    public var phase: String
    /// Runs per side of each comparison.
    public var runsPerSide: Int
    /// Comparisons per cell, for the A/A and for each shift.
    public var comparisonsPerCell: Int
    /// The gate's significance level.
    public var alpha: Double
    /// The gate's threshold, as a fraction (0.05 = 5 %).
    public var threshold: Double
    /// The seed of the shuffles.
    public var seed: UInt64
    /// One entry per cell measured, in results order.
    public var cells: [CellPower]
    /// Cells left out, with the reason (too few ok runs).
    public var skipped: [String]
    /// Where the runs came from: when `bench` started them (`settings.startedAt`), the host, its
    /// CPU count and kernel, the camera and profile — so a quote of these figures says whose they are.
    public var measuredOn: String

    /// One line for the gate's power advice, quoting these figures and where they came from.
    public var quote: String {
      let pct = Fmt.rate
      let tenPercent = caughtRate(at: 0.10).map { "a 10 % regression caught in \(pct($0)) of comparisons" }
      return "measured by Benchmarks/gate-power on \(cells.count) cell\(cells.count == 1 ? "" : "s") of"
        + " \(cells.map(\.runs).min() ?? 0)+ runs (\(measuredOn)): \(runsPerSide) runs per side, α ="
        + " \(PowerAdvice.formatAlpha(alpha)), threshold \(Fmt.percent(threshold)): false alarms in"
        + " \(aaFalseAlarms) of \(aaComparisons) A/A comparisons (\(pct(falseAlarmRate)))"
        + (tenPercent.map { "; \($0)" } ?? "")
        + "; smallest shift caught in ≥ 95 % of comparisons in every cell: \(pct(smallestShiftCaught()))"
    }

    /// A/A comparisons over all cells.
    public var aaComparisons: Int { cells.reduce(0) { $0 + $1.aaComparisons } }
    /// A/A comparisons the gate failed, over all cells.
    public var aaFalseAlarms: Int { cells.reduce(0) { $0 + $1.aaFalseAlarms } }
    /// The false-alarm rate over all cells (0.01 = 1 %).
    public var falseAlarmRate: Double {
      aaComparisons == 0 ? .nan : Double(aaFalseAlarms) / Double(aaComparisons)
    }
    /// The share of comparisons caught at `shift`, over all cells (nil when not measured).
    public func caughtRate(at shift: Double) -> Double? {
      let rows = cells.compactMap { $0.shifts.first { abs($0.shift - shift) < 1e-9 } }
      guard !rows.isEmpty else { return nil }
      let caught = rows.reduce(0) { $0 + $1.caught }
      let total = rows.reduce(0) { $0 + $1.comparisons }
      return Double(caught) / Double(total)
    }
    /// The smallest shift caught in at least `rate` of the comparisons in **every** cell (the
    /// worst cell decides), or nil when none is.
    public func smallestShiftCaught(rate: Double = 0.95) -> Double? {
      let shifts = cells.first?.shifts.map(\.shift) ?? []
      return shifts.first { shift in
        cells.allSatisfy { cell in
          cell.shifts.first { abs($0.shift - shift) < 1e-9 }.map { $0.rate >= rate } ?? false
        }
      }
    }
  }

  /// One cell's figures.
  public struct CellPower: Sendable, Hashable, Codable {
    /// `condition/config`.
    public var cell: String
    /// The cell's ok runs of the phase.
    public var runs: Int
    /// The cell's median, ms.
    public var medianMs: Double
    /// Robust noise (1.4826 × MAD), as a fraction of the median.
    public var noiseFraction: Double
    /// A/A comparisons.
    public var aaComparisons: Int
    /// A/A comparisons the gate failed.
    public var aaFalseAlarms: Int
    /// Per shift: how many comparisons the gate failed.
    public var shifts: [ShiftPower]
    /// The smallest shift caught in at least 95 % of this cell's comparisons, or nil.
    public var smallestShiftCaughtAt95: Double? { shifts.first { $0.rate >= 0.95 }?.shift }
  }

  /// The gate against one shift.
  public struct ShiftPower: Sendable, Hashable, Codable {
    /// The slowdown applied to the "new" half, as a fraction (0.10 = 10 % slower).
    public var shift: Double
    /// Comparisons.
    public var comparisons: Int
    /// Comparisons the gate failed (the regression was caught).
    public var caught: Int
    /// `caught / comparisons`.
    public var rate: Double { comparisons == 0 ? .nan : Double(caught) / Double(comparisons) }
  }

  /// The shifts measured by default: 1 % to 20 % in steps of 1 %, then 25 %…100 % (so a noisy
  /// machine's smallest shift caught is still found).
  public static let defaultShifts: [Double] =
    (1...20).map { Double($0) / 100 } + [25, 30, 35, 40, 50, 60, 80, 100].map { Double($0) / 100 }

  /// Measures the gate (`Gate.BaselineOptions`' threshold for `phase` and α) on every cell of
  /// `results` with at least 2 × `runsPerSide` ok runs of `phase`.
  public static func measure(
    _ results: BenchResults, phase: String = PhaseName.firstFrameObserved, runsPerSide: Int = 20,
    comparisonsPerCell: Int = 250, shifts: [Double] = defaultShifts,
    options: Gate.BaselineOptions = Gate.BaselineOptions(), seed: UInt64 = 0x6A7E_B0E7
  ) -> Report {
    let threshold = options.threshold(for: phase)
    var report = Report(
      phase: phase, runsPerSide: runsPerSide, comparisonsPerCell: comparisonsPerCell, alpha: options.alpha,
      threshold: threshold, seed: seed, cells: [], skipped: [],
      measuredOn:
        "\(results.settings.startedAt), \(results.host.hostname), \(results.host.cpus) CPUs, kernel"
        + " \(results.host.kernel), camera \(results.settings.camera), profile"
        + " \(results.settings.profileName ?? "(none)")")
    for cell in results.orderedCells {
      let name = "\(cell.condition)/\(cell.config)"
      let samples = cell.samples(for: phase)
      guard runsPerSide >= 2, samples.count >= 2 * runsPerSide else {
        report.skipped.append("\(name): \(samples.count) ok runs, fewer than 2 × \(runsPerSide)")
        continue
      }
      var rng = SplitMix64(seed: seed ^ SplitMix64.stableHash(name))
      func decide(_ baseline: [Double], _ new: [Double]) -> Bool {
        let ratio = Statistics.median(new) / Statistics.median(baseline)
        guard ratio > 1 + threshold else { return false }  // the test cannot change the verdict
        let p = MannWhitney.test(baseline, new).pValue
        return Gate.isRegression(ratio: ratio, pValue: p, threshold: threshold, alpha: options.alpha)
      }
      var falseAlarms = 0
      var caught = [Int](repeating: 0, count: shifts.count)
      var order = Array(samples.indices)
      for _ in 0..<comparisonsPerCell {
        for i in stride(from: order.count - 1, to: 0, by: -1) {
          order.swapAt(i, rng.nextIndex(below: i + 1))
        }
        let baseline = order[0..<runsPerSide].map { samples[$0] }
        let new = order[runsPerSide..<(2 * runsPerSide)].map { samples[$0] }
        if decide(baseline, new) { falseAlarms += 1 }
        for (k, shift) in shifts.enumerated() where decide(baseline, new.map { $0 * (1 + shift) }) {
          caught[k] += 1
        }
      }
      let median = Statistics.median(samples)
      report.cells.append(
        CellPower(
          cell: name, runs: samples.count, medianMs: median,
          noiseFraction: median > 0 ? Statistics.robustStandardDeviation(samples) / median : .nan,
          aaComparisons: comparisonsPerCell, aaFalseAlarms: falseAlarms,
          shifts: zip(shifts, caught).map {
            ShiftPower(shift: $0, comparisons: comparisonsPerCell, caught: $1)
          }))
    }
    return report
  }
}
