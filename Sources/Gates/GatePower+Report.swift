import RunAnalysis
import Statistics

extension GatePower {
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
    /// What an inconclusive check counted as (`bench gate --inconclusive`; CI's is `fail`).
    public var inconclusive: Gate.InconclusivePolicy
    /// The noise ceiling the rule had (`bench gate --noise-ceiling`, a fraction), if any: above
    /// it, an inconclusive check passed.
    public var noiseCeiling: Double?
    /// The seed of the shuffles.
    public var seed: UInt64
    /// One entry per cell measured, in results order.
    public var cells: [CellPower]
    /// Cells left out, with the reason (too few counted runs).
    public var skipped: [String]
    /// Family-wise A/A comparisons: comparison i of every cell together, one gate run over all
    /// the cells (`comparisonsPerCell` when any cell was measured, else 0).
    public var familyComparisons: Int
    /// Family-wise A/A comparisons in which at least one cell raised a false alarm.
    public var familyFalseAlarms: Int
    /// Where the runs came from: when `bench` started them (`settings.startedAt`), the host, its
    /// CPU count and kernel, the camera and profile — so a quote of these figures says whose they are.
    public var measuredOn: String
    /// Where the baseline side's runs came from, when it was another recording (`bench power
    /// --against`: the gate across sessions); nil when both sides are halves of one.
    public var baselineMeasuredOn: String?
    /// The run counts tried and the one chosen for CI (`bench power --size`), when sized.
    public var sizing: GateSizing?

    /// One line for the gate's power advice, quoting these figures and where they came from.
    public var quote: String {
      let pct = NumberFormat.rate
      let tenPercent = caughtRate(at: 0.10).map { "a 10 % regression caught in \(pct($0)) of comparisons" }
      let family =
        familyComparisons == 0
        ? ""
        : "; family-wise (any of the \(cells.count) cells) in \(familyFalseAlarms) of \(familyComparisons)"
          + " (\(pct(familyFalseAlarmRate)); 95 % upper bound \(pct(familyFalseAlarmUpperBound)))"
      let sized = sizing.map { "; \($0.quote)" } ?? ""
      return "measured by Benchmarks/gate-power on \(cells.count) cell\(cells.count == 1 ? "" : "s") of"
        + " \(cells.map(\.runs).min() ?? 0)+ runs (\(measuredOn))"
        + (baselineMeasuredOn.map { " against a baseline recorded apart (\($0))" } ?? "")
        + ": \(runsPerSide) runs per side, α ="
        + " \(PowerAdvice.formatAlpha(alpha)), threshold \(NumberFormat.percent(threshold)), inconclusive"
        + " \(inconclusive.rawValue)"
        + (noiseCeiling.map { " (passing above a \(NumberFormat.percent($0)) noise ceiling)" } ?? "")
        + ": false alarms in \(aaFalseAlarms) of \(aaComparisons) A/A comparisons"
        + " (\(pct(falseAlarmRate)))\(family)" + (tenPercent.map { "; \($0)" } ?? "")
        + "; smallest shift caught in ≥ 95 % of comparisons in every cell: \(pct(smallestShiftCaught()))"
        + sized
    }

    /// A/A comparisons over all cells.
    public var aaComparisons: Int { cells.reduce(0) { $0 + $1.aaComparisons } }
    /// A/A comparisons the gate failed, over all cells.
    public var aaFalseAlarms: Int { cells.reduce(0) { $0 + $1.aaFalseAlarms } }
    /// The per-cell false-alarm rate over all cells (0.01 = 1 %).
    public var falseAlarmRate: Double {
      aaComparisons == 0 ? .nan : Double(aaFalseAlarms) / Double(aaComparisons)
    }
    /// The family-wise false-alarm rate: the share of gate runs over all cells that a healthy
    /// change fails (0.01 = 1 %).
    public var familyFalseAlarmRate: Double {
      familyComparisons == 0 ? .nan : Double(familyFalseAlarms) / Double(familyComparisons)
    }
    /// The 95 % upper bound of ``familyFalseAlarmRate`` (exact, one-sided).
    public var familyFalseAlarmUpperBound: Double {
      BinomialBounds.upper(events: familyFalseAlarms, trials: familyComparisons)
    }

    /// The share of comparisons caught at `shift`, over all cells (nil when not measured).
    public func caughtRate(at shift: Double) -> Double? {
      let rows = cells.compactMap { $0.shift(shift) }
      guard !rows.isEmpty else { return nil }
      let caught = rows.reduce(0) { $0 + $1.caught }
      let total = rows.reduce(0) { $0 + $1.comparisons }
      return Double(caught) / Double(total)
    }

    /// The lowest share of comparisons caught at `shift` in any one cell (nil when a cell did not
    /// measure it, or no cell was measured).
    public func worstCellCaughtRate(at shift: Double) -> Double? {
      let rates = cells.map { $0.shift(shift)?.rate }
      guard !rates.isEmpty, !rates.contains(where: { $0 == nil }) else { return nil }
      return rates.compactMap { $0 }.min()
    }

    /// The smallest shift caught in at least `rate` of the comparisons in **every** cell (the
    /// worst cell decides), or nil when none is.
    public func smallestShiftCaught(rate: Double = 0.95) -> Double? {
      let shifts = cells.first?.shifts.map(\.shift) ?? []
      return shifts.first { shift in
        cells.allSatisfy { cell in cell.shift(shift).map { $0.rate >= rate } ?? false }
      }
    }
  }

  /// One cell's figures.
  public struct CellPower: Sendable, Hashable, Codable {
    /// `condition/config`.
    public var cell: String
    /// The cell's counted runs of the phase, failed ones included.
    public var runs: Int
    /// Of those, the failed runs that did not reach the phase (resampled as +∞: slower than every
    /// finished run).
    public var failedRuns: Int
    /// The median of the finished runs, ms.
    public var medianMs: Double
    /// Robust noise (1.4826 × MAD) of the finished runs, as a fraction of their median.
    public var noiseFraction: Double
    /// A/A comparisons.
    public var aaComparisons: Int
    /// A/A comparisons the gate failed.
    public var aaFalseAlarms: Int
    /// Per shift: how many comparisons the gate failed.
    public var shifts: [ShiftPower]
    /// The smallest shift caught in at least 95 % of this cell's comparisons, or nil.
    public var smallestShiftCaughtAt95: Double? { shifts.first { $0.rate >= 0.95 }?.shift }

    /// The row for `shift`, if measured.
    public func shift(_ shift: Double) -> ShiftPower? { shifts.first { abs($0.shift - shift) < 1e-9 } }
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
}

// Reports recorded before the inconclusive policy, failed runs and family-wise counts were
// measured still read: their rule passed an inconclusive check, and they counted ok runs only.
extension GatePower.Report {
  private enum CodingKeys: String, CodingKey {
    case phase, runsPerSide, comparisonsPerCell, alpha, threshold, inconclusive, noiseCeiling, seed, cells
    case skipped
    case familyComparisons, familyFalseAlarms, measuredOn, baselineMeasuredOn, sizing
  }

  /// Decodes a `bench power --format json` report, older ones included.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    phase = try c.decode(String.self, forKey: .phase)
    runsPerSide = try c.decode(Int.self, forKey: .runsPerSide)
    comparisonsPerCell = try c.decode(Int.self, forKey: .comparisonsPerCell)
    alpha = try c.decode(Double.self, forKey: .alpha)
    threshold = try c.decode(Double.self, forKey: .threshold)
    inconclusive = try c.decodeIfPresent(Gate.InconclusivePolicy.self, forKey: .inconclusive) ?? .pass
    noiseCeiling = try c.decodeIfPresent(Double.self, forKey: .noiseCeiling)
    seed = try c.decode(UInt64.self, forKey: .seed)
    cells = try c.decode([GatePower.CellPower].self, forKey: .cells)
    skipped = try c.decode([String].self, forKey: .skipped)
    familyComparisons = try c.decodeIfPresent(Int.self, forKey: .familyComparisons) ?? 0
    familyFalseAlarms = try c.decodeIfPresent(Int.self, forKey: .familyFalseAlarms) ?? 0
    measuredOn = try c.decode(String.self, forKey: .measuredOn)
    baselineMeasuredOn = try c.decodeIfPresent(String.self, forKey: .baselineMeasuredOn)
    sizing = try c.decodeIfPresent(GateSizing.self, forKey: .sizing)
  }
}

extension GatePower.CellPower {
  private enum CodingKeys: String, CodingKey {
    case cell, runs, failedRuns, medianMs, noiseFraction, aaComparisons, aaFalseAlarms, shifts
  }

  /// Decodes one cell's figures, older ones (without `failedRuns`) included.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    cell = try c.decode(String.self, forKey: .cell)
    runs = try c.decode(Int.self, forKey: .runs)
    failedRuns = try c.decodeIfPresent(Int.self, forKey: .failedRuns) ?? 0
    medianMs = try c.decode(Double.self, forKey: .medianMs)
    noiseFraction = try c.decode(Double.self, forKey: .noiseFraction)
    aaComparisons = try c.decode(Int.self, forKey: .aaComparisons)
    aaFalseAlarms = try c.decode(Int.self, forKey: .aaFalseAlarms)
    shifts = try c.decode([GatePower.ShiftPower].self, forKey: .shifts)
  }
}
