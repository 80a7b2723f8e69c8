import LaunchContract
import ResultsSchema
import RunAnalysis
import Statistics

/// How many runs per side the code-against-code gate needs (`bench power --size`): for each count
/// n from 3 to half the smallest cell's counted runs, the gate's power against one uniform
/// slowdown (default 10 %) in each cell and its family-wise A/A false-alarm rate, both measured by
/// ``GatePower/measure(_:against:phase:runsPerSide:comparisonsPerCell:shifts:options:inconclusive:seed:)``
/// under the rule CI runs; the smallest n meeting the goals; and the count chosen for CI, that
/// smallest n times a safety margin.
///
/// A count meets the goals when, at 95 % confidence (exact one-sided binomial bounds), the
/// slowdown is caught in at least `power` of the comparisons in **every** cell and a healthy
/// change fails the gate over all cells in at most `falseAlarms` of them. The smallest count
/// meeting them is the smallest from which every larger count tried meets them too, so that one
/// lucky count below a failing one is not chosen.
public struct GateSizing: Sendable, Hashable, Codable {
  /// What a run count must achieve.
  public struct Goals: Sendable, Hashable, Codable {
    /// The uniform slowdown to catch, as a fraction (0.10 = every run 10 % slower).
    public var shift: Double
    /// The share of comparisons that must catch it in every cell (lower 95 % bound).
    public var power: Double
    /// The family-wise A/A false-alarm rate allowed (upper 95 % bound).
    public var falseAlarms: Double

    /// Issue 25's goals by default: a 10 % slowdown caught in ≥ 95 %, false alarms ≤ 1 %.
    public init(shift: Double = 0.10, power: Double = 0.95, falseAlarms: Double = 0.01) {
      self.shift = shift
      self.power = power
      self.falseAlarms = falseAlarms
    }
  }

  /// One run count's figures.
  public struct Row: Sendable, Hashable, Codable {
    /// Runs per side.
    public var runsPerSide: Int
    /// Comparisons per cell (and family-wise).
    public var comparisons: Int
    /// Per cell, in ``GateSizing/cells`` order: comparisons that caught the slowdown.
    public var caught: [Int]
    /// Family-wise A/A comparisons in which some cell raised a false alarm.
    public var familyFalseAlarms: Int

    /// Creates a row.
    public init(runsPerSide: Int, comparisons: Int, caught: [Int], familyFalseAlarms: Int) {
      self.runsPerSide = runsPerSide
      self.comparisons = comparisons
      self.caught = caught
      self.familyFalseAlarms = familyFalseAlarms
    }

    /// The lowest share caught in any cell.
    public var worstCaughtRate: Double {
      guard comparisons > 0, let worst = caught.min() else { return .nan }
      return Double(worst) / Double(comparisons)
    }
    /// The 95 % lower bound of ``worstCaughtRate``.
    public var worstCaughtLowerBound: Double {
      BinomialBounds.lower(events: caught.min() ?? 0, trials: comparisons)
    }
    /// The family-wise false-alarm rate.
    public var familyFalseAlarmRate: Double {
      comparisons == 0 ? .nan : Double(familyFalseAlarms) / Double(comparisons)
    }
    /// The 95 % upper bound of ``familyFalseAlarmRate``.
    public var familyFalseAlarmUpperBound: Double {
      BinomialBounds.upper(events: familyFalseAlarms, trials: comparisons)
    }

    /// True when this count meets `goals` (both at 95 % confidence).
    public func meets(_ goals: Goals) -> Bool {
      !caught.isEmpty && worstCaughtLowerBound >= goals.power
        && familyFalseAlarmUpperBound <= goals.falseAlarms
    }
  }

  /// The goals.
  public var goals: Goals
  /// The cells measured (`condition/config`), the ones CI's step gates.
  public var cells: [String]
  /// One row per run count tried, ascending.
  public var rows: [Row]
  /// The smallest run count meeting the goals (it and every larger count tried), or nil.
  public var smallestRunsPerSide: Int?
  /// The factor CI's count has over the smallest (see ``chosenRunsPerSide``).
  public var margin: Double
  /// CI's runs per side: ⌈`margin` × smallest⌉, at most the largest count tried; nil when no count
  /// met the goals. What `scripts/ab-gate` runs by default.
  public var chosenRunsPerSide: Int?

  /// One clause for the gate's power advice.
  public var quote: String {
    let shift = NumberFormat.rate(goals.shift)
    guard let smallest = smallestRunsPerSide, let chosen = chosenRunsPerSide else {
      return
        "sized for a \(shift) slowdown: no run count up to \(rows.last?.runsPerSide ?? 0) per side met the goals"
    }
    return "sized for a \(shift) slowdown (≥ \(NumberFormat.rate(goals.power)) caught in every cell, ≤"
      + " \(NumberFormat.rate(goals.falseAlarms)) false alarms family-wise, both at 95 % confidence): smallest"
      + " \(smallest) runs per side, CI runs \(chosen) (× \(String(format: "%g", margin))"
      + (chosen < Int((margin * Double(smallest)).rounded(.up)) ? ", capped at half the runs)" : ")")
  }

  /// Sizes the gate on `results` (see the type's description): rows for n = 3 … half the
  /// smallest cell's counted runs of `phase`, each from `comparisonsPerCell` comparisons.
  public static func size(
    _ results: BenchResults, phase: String = PhaseName.firstFrameObserved, goals: Goals = Goals(),
    margin: Double = 2, comparisonsPerCell: Int = GatePower.defaultComparisons,
    options: Gate.BaselineOptions = Gate.BaselineOptions(), inconclusive: Gate.InconclusivePolicy = .fail,
    seed: UInt64 = 0x6A7E_B0E7
  ) -> GateSizing {
    let counts = results.orderedCells.map { $0.rankedSamples(for: phase).count }.filter { $0 > 0 }
    let largest = (counts.min() ?? 0) / 2
    var sizing = GateSizing(
      goals: goals, cells: [], rows: [], smallestRunsPerSide: nil, margin: margin, chosenRunsPerSide: nil)
    guard largest >= 3 else { return sizing }
    for n in 3...largest {
      let r = GatePower.measure(
        results, phase: phase, runsPerSide: n, comparisonsPerCell: comparisonsPerCell, shifts: [goals.shift],
        options: options, inconclusive: inconclusive, seed: seed)
      sizing.cells = r.cells.map(\.cell)
      sizing.rows.append(
        Row(
          runsPerSide: n, comparisons: comparisonsPerCell,
          caught: r.cells.map { $0.shifts.first?.caught ?? 0 },
          familyFalseAlarms: r.familyFalseAlarms))
    }
    let failing = sizing.rows.lastIndex { !$0.meets(goals) }
    let first = failing.map { $0 + 1 } ?? 0
    if first < sizing.rows.count {
      let smallest = sizing.rows[first].runsPerSide
      sizing.smallestRunsPerSide = smallest
      sizing.chosenRunsPerSide = min(largest, Int((margin * Double(smallest)).rounded(.up)))
    }
    return sizing
  }
}
