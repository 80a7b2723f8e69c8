import LaunchContract
import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

/// `bench power --sequential`: what a sequential design (``SequentialDesign``) costs and catches
/// on the runs a results file recorded, each cell's runs resampled with a planted uniform shift
/// (``SequentialDesign/power(recorded:shift:trials:seed:)``): per shift the verdicts, the mean
/// (expected) and worst runs a side; with `--size`, the smallest design (fewest looks of
/// ``Gate/sequentialPairsPerLook`` pairs) meeting the goals `--size` holds the fixed gate to.
package struct SequentialSizing: Sendable, Hashable, Codable {
  /// One design's figures in one cell.
  package struct CellFigures: Sendable, Hashable, Codable {
    /// `condition/config`.
    package var cell: String
    /// The cell's recorded runs resampled (failed ones `+∞`).
    package var recordedRuns: Int
    /// One row per planted shift, ascending from 0.
    package var shifts: [ShiftFigures]
  }

  /// One planted shift's figures.
  package struct ShiftFigures: Sendable, Hashable, Codable {
    /// The planted uniform shift, a fraction.
    package var shift: Double
    /// Comparisons resampled.
    package var comparisons: Int
    /// Comparisons ending SLOWER, FASTER, SAME and UNKNOWN.
    package var slower: Int
    /// Comparisons ending FASTER.
    package var faster: Int
    /// Comparisons ending SAME.
    package var same: Int
    /// Comparisons ending UNKNOWN.
    package var unknown: Int
    /// Comparisons that fail CI's step (`SequentialPower.stepFailures`): SLOWER, or UNKNOWN
    /// beyond the threshold.
    package var stepFailures: Int
    /// The mean runs a side used: the expected cost.
    package var meanRuns: Double
    /// The most runs a side any comparison used.
    package var worstRuns: Int

    /// From one ``SequentialPower``.
    init(_ power: SequentialPower) {
      shift = power.shift
      comparisons = power.trials
      slower = power.verdicts[.slower] ?? 0
      faster = power.verdicts[.faster] ?? 0
      same = power.verdicts[.same] ?? 0
      unknown = power.verdicts[.unknown] ?? 0
      stepFailures = power.stepFailures
      meanRuns = power.meanRuns
      worstRuns = power.worstRuns
    }
  }

  /// One design tried.
  package struct Row: Sendable, Hashable, Codable {
    /// Pairs between looks.
    package var pairsPerLook: Int
    /// The most looks.
    package var looks: Int
    /// The most runs a side.
    package var maximumRunsPerSide: Int
    /// Per cell: the design at shift 0 and the goals' shift (or every shift of the report).
    package var cells: [CellFigures]
    /// The family-wise A/A false-alarm rate (SLOWER or FASTER in any cell; cells resampled
    /// independently: 1 − ∏(1 − each cell's rate)).
    package var familyFalseAlarmRate: Double
    /// Its 95 % upper bound (each cell's rate at its upper bound).
    package var familyFalseAlarmUpperBound: Double
    /// The family-wise share of A/A comparisons failing CI's step (SLOWER, or UNKNOWN beyond the
    /// threshold, in any cell; 1 − ∏(1 − each cell's rate)), and its 95 % upper bound.
    package var familyStepFailureRate: Double
    /// Its 95 % upper bound.
    package var familyStepFailureUpperBound: Double
    /// The lowest share at the goals' shift failing CI's step in any cell, and its 95 % lower bound.
    package var worstStepCaughtRate: Double
    /// Its 95 % lower bound.
    package var worstStepCaughtLowerBound: Double
    /// The lowest share of SLOWER at the goals' shift in any cell.
    package var worstCaughtRate: Double
    /// Its 95 % lower bound.
    package var worstCaughtLowerBound: Double

    /// True when this design meets `goals` (both at 95 % confidence).
    package func meets(_ goals: GateSizing.Goals) -> Bool {
      !cells.isEmpty && worstCaughtLowerBound >= goals.power
        && familyFalseAlarmUpperBound <= goals.falseAlarms
    }
  }

  /// The design reported (the one asked for, or the one chosen by ``size``): α, β, threshold.
  /// α is family-wise over ``cells``.
  package var alpha: Double
  /// The cells sharing α (each spends α / cells): the results' cells, as the `bench ab` that
  /// recorded them gated them.
  package var cells: Int
  /// β.
  package var beta: Double
  /// The threshold, a fraction.
  package var threshold: Double
  /// The spending function.
  package var spending: String
  /// The goals (`--shift`, `--power-goal`, `--false-alarm-goal`).
  package var goals: GateSizing.Goals
  /// The design reported at every shift of ``shifts``.
  package var report: Row
  /// With `--size`: every design tried, fewest looks first.
  package var rows: [Row]?
  /// With `--size`: the most runs a side of the smallest design meeting the goals, or nil.
  package var chosenMaximumRunsPerSide: Int?

  /// The shifts a design is reported at: 0, 2, 5, 10 and 20 % (issue 39's).
  package static let shifts = [0.0, 0.02, 0.05, 0.10, 0.20]

  /// The cells of `results` with at least `minimum` counted runs of `phase` (failed ones `+∞`).
  static func samples(_ results: BenchResults, phase: String, minimum: Int = 10) -> [(String, [Double])] {
    results.orderedCells.compactMap { cell in
      let values = cell.rankedSamples(for: phase)
      return values.count >= minimum ? (CellKey(cell).name, values) : nil
    }
  }

  /// The chance that any of independent cells with these rates fails: 1 − ∏(1 − rate).
  static func familyRate(_ rates: [Double]) -> Double { 1 - rates.reduce(1) { $0 * (1 - $1) } }

  /// `design`'s figures in each cell at each of `shifts`, from `comparisons` resamples, seeded.
  static func row(
    _ design: SequentialDesign, cells: [(String, [Double])], shifts: [Double], goalShift: Double,
    comparisons: Int, seed: UInt64
  ) -> Row {
    var figures: [CellFigures] = []
    for (index, (name, values)) in cells.enumerated() {
      let rows = shifts.map { shift in
        ShiftFigures(
          design.power(
            recorded: values, shift: shift, trials: comparisons,
            seed: seed &+ UInt64(index) &* 7919 &+ UInt64((shift * 1000).rounded())))
      }
      figures.append(CellFigures(cell: name, recordedRuns: values.count, shifts: rows))
    }
    let aa = figures.compactMap { $0.shifts.first { $0.shift == 0 } }
    let caught = figures.compactMap { $0.shifts.first { $0.shift == goalShift } }
    let alarms = aa.map { Double($0.slower + $0.faster) / Double(max(1, $0.comparisons)) }
    let alarmBounds = aa.map { BinomialBounds.upper(events: $0.slower + $0.faster, trials: $0.comparisons) }
    let family = familyRate(alarms)
    let familyBound = familyRate(alarmBounds)
    let stepAlarms = aa.map { Double($0.stepFailures) / Double(max(1, $0.comparisons)) }
    let stepBounds = aa.map { BinomialBounds.upper(events: $0.stepFailures, trials: $0.comparisons) }
    let worst = caught.min { $0.slower < $1.slower }
    let worstStep = caught.min { $0.stepFailures < $1.stepFailures }
    return Row(
      pairsPerLook: design.pairsPerLook, looks: design.looks, maximumRunsPerSide: design.maximumRuns,
      cells: figures, familyFalseAlarmRate: family, familyFalseAlarmUpperBound: familyBound,
      familyStepFailureRate: familyRate(stepAlarms), familyStepFailureUpperBound: familyRate(stepBounds),
      worstStepCaughtRate: worstStep.map { Double($0.stepFailures) / Double(max(1, $0.comparisons)) } ?? .nan,
      worstStepCaughtLowerBound: worstStep.map {
        BinomialBounds.lower(events: $0.stepFailures, trials: $0.comparisons)
      } ?? .nan,
      worstCaughtRate: worst.map { Double($0.slower) / Double(max(1, $0.comparisons)) } ?? .nan,
      worstCaughtLowerBound: worst.map { BinomialBounds.lower(events: $0.slower, trials: $0.comparisons) }
        ?? .nan)
  }

  /// Measures `design` on `results` at every shift of ``shifts`` (and the goals' shift); with
  /// `size`, first tries designs of 2 … `mostLooks` looks against the goals and reports the
  /// smallest meeting them (else `design`). Nil when no cell has 10 runs of `phase`.
  package static func measure(
    _ results: BenchResults, design: SequentialDesign, phase: String = PhaseName.firstFrameObserved,
    goals: GateSizing.Goals = GateSizing.Goals(), size: Bool = false, mostLooks: Int = 12,
    comparisons: Int = 500, seed: UInt64 = 0x5E9_0E7
  ) -> SequentialSizing? {
    let cells = samples(results, phase: phase)
    guard !cells.isEmpty else { return nil }
    var reported = design
    var rows: [Row]?
    var chosen: Int?
    if size {
      var tried: [Row] = []
      for looks in 2...max(2, mostLooks) {
        let candidate = SequentialDesign(
          pairsPerLook: design.pairsPerLook, looks: looks, alpha: design.alpha, beta: design.beta,
          threshold: design.threshold, powerShift: design.powerShift, spending: design.spending,
          cells: design.cells)
        let row = Self.row(
          candidate, cells: cells, shifts: [0, goals.shift], goalShift: goals.shift, comparisons: comparisons,
          seed: seed)
        tried.append(row)
        if chosen == nil, row.meets(goals) {
          chosen = candidate.maximumRuns
          reported = candidate
        }
      }
      rows = tried
    }
    let shifts = (Self.shifts + [goals.shift]).reduce(into: [Double]()) {
      if !$0.contains($1) { $0.append($1) }
    }
    .sorted()
    let report = Self.row(
      reported, cells: cells, shifts: shifts, goalShift: goals.shift, comparisons: comparisons, seed: seed)
    return SequentialSizing(
      alpha: reported.alpha, cells: reported.cells, beta: reported.beta, threshold: reported.threshold,
      spending: reported.spending.rawValue, goals: goals, report: report, rows: rows,
      chosenMaximumRunsPerSide: chosen)
  }
}
