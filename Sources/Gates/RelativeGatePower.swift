import ResultsSchema
import RunAnalysis
import Sampling
import Statistics

/// The relative gates' false alarms and reach, measured by resampling real runs (`bench power
/// --relative`, issue 37): how often a healthy build fails each gate at the runs per cell CI
/// gives it, and how far the ratio must move toward the bound before the gate fails it.
///
/// Method: for each relative gate whose two cells have at least `runsPerCell` counted runs,
/// `comparisons` times, `runsPerCell` runs are drawn without replacement from each cell and the
/// gate is decided as `bench gate` decides it (``Gate/relativeStatus(_:numerator:denominator:resamples:seed:)``,
/// an inconclusive decision counted as `inconclusive` says: CI fails it). At shift 0 every failure
/// is a false alarm (family-wise: draw i of every gate together is one CI gate run). At shift s
/// the drawn runs are moved toward the gate's bound by s — a `min_ratio` gate's denominator made
/// s slower, a `max_ratio` gate's numerator — which is what a regression of the configuration the
/// gate protects does (deferred start s slower in both of Benchmarks/gates.json's cold gates).
/// Failed runs stay `+∞`. A relative gate is a bound, not an A/B: it catches a shift that takes
/// the ratio past its bound, so its reach depends on how far the ratio sits from it.
public enum RelativeGatePower {
  /// The shifts measured: 0 (the A/A), then 5 % to 100 %.
  public static let shifts: [Double] = [0, 0.05, 0.10, 0.15, 0.20, 0.30, 0.40, 0.50, 0.75, 1.0]

  /// One gate's figures.
  public struct GateFigures: Sendable, Hashable, Codable {
    /// The gate's name.
    public var gate: String
    /// Its bound, as the file gives it (`≥ 1.8`, `≤ 1.1`).
    public var bound: String
    /// Counted runs in the numerator's and the denominator's cell.
    public var recordedRuns: [Int]
    /// The ratio of the cells' medians over all their runs.
    public var recordedRatio: Double
    /// Per shift: comparisons and how many failed the gate.
    public var shifts: [ShiftFailures]
    /// The smallest shift measured that fails the gate in ≥ 95 % of comparisons (lower bound),
    /// nil when none does.
    public var smallestShiftCaught: Double?
  }

  /// Failures at one shift.
  public struct ShiftFailures: Sendable, Hashable, Codable {
    /// The shift toward the bound, a fraction.
    public var shift: Double
    /// Comparisons drawn.
    public var comparisons: Int
    /// How many failed the gate (an inconclusive one counted as the policy says).
    public var failures: Int
  }

  /// The report.
  public struct Report: Sendable, Hashable, Codable {
    /// Runs drawn from each cell per comparison.
    public var runsPerCell: Int
    /// Comparisons per gate and shift.
    public var comparisons: Int
    /// What an inconclusive decision counts as.
    public var inconclusive: Gate.InconclusivePolicy
    /// Each gate measured.
    public var gates: [GateFigures]
    /// Gates not measured, with why.
    public var skipped: [String]
    /// Family-wise A/A failures: draw i of every measured gate together is one CI gate run.
    public var familyFalseAlarms: Int
    /// Its 95 % upper bound, as a fraction.
    public var familyFalseAlarmUpperBound: Double
  }

  /// Measures `gates` on `results`' cells (the first camera's), drawing `runsPerCell` runs a cell.
  public static func measure(
    _ results: BenchResults, gates: [GateDefinitions.RelativeGate], runsPerCell: Int, comparisons: Int,
    inconclusive: Gate.InconclusivePolicy = .fail, seed: UInt64 = 0x2E1A_71FE
  ) -> Report {
    var report = Report(
      runsPerCell: runsPerCell, comparisons: comparisons, inconclusive: inconclusive, gates: [], skipped: [],
      familyFalseAlarms: 0, familyFalseAlarmUpperBound: 1)
    var familyAlarm = [Bool](repeating: false, count: comparisons)
    let camera = results.cells.first?.camera ?? results.settings.camera
    for gate in gates {
      guard
        let num = results.cell(CellKey(config: gate.numerator, condition: gate.condition, camera: camera)),
        let den = results.cell(CellKey(config: gate.denominator, condition: gate.condition, camera: camera))
      else {
        report.skipped.append(
          "\(gate.name): no \(gate.numerator) or \(gate.denominator) cell in \(gate.condition)")
        continue
      }
      let sn = num.rankedSamples(for: gate.phase)
      let sd = den.rankedSamples(for: gate.phase)
      guard sn.count >= runsPerCell, sd.count >= runsPerCell, runsPerCell >= 1 else {
        report.skipped.append(
          "\(gate.name): \(min(sn.count, sd.count)) counted runs, fewer than \(runsPerCell)")
        continue
      }
      var rng = SplitMix64(seed: seed ^ SplitMix64.stableHash(gate.name))
      var failures = [Int](repeating: 0, count: shifts.count)
      for i in 0..<comparisons {
        let n = draw(sn, runsPerCell, &rng)
        let d = draw(sd, runsPerCell, &rng)
        for (k, shift) in shifts.enumerated() {
          let moved =
            gate.min_ratio != nil ? (n, d.map { $0 * (1 + shift) }) : (n.map { $0 * (1 + shift) }, d)
          let (status, _) = Gate.relativeStatus(
            gate, numerator: moved.0, denominator: moved.1, resamples: Bootstrap.defaultResamples,
            seed: Bootstrap.defaultSeed ^ SplitMix64.stableHash("\(gate.name)|\(camera)"))
          guard Gate.fails(status, inconclusive: inconclusive) else { continue }
          failures[k] += 1
          if shift == 0 { familyAlarm[i] = true }
        }
      }
      let rows = zip(shifts, failures).map {
        ShiftFailures(shift: $0, comparisons: comparisons, failures: $1)
      }
      let smallest = rows.first {
        $0.shift > 0 && BinomialBounds.lower(events: $0.failures, trials: $0.comparisons) >= 0.95
      }
      report.gates.append(
        GateFigures(
          gate: gate.name,
          bound: gate.min_ratio.map { "≥ \($0)" } ?? gate.max_ratio.map { "≤ \($0)" } ?? "",
          recordedRuns: [sn.count, sd.count],
          recordedRatio: Statistics.median(sn) / Statistics.median(sd), shifts: rows,
          smallestShiftCaught: smallest?.shift))
    }
    if !report.gates.isEmpty {
      report.familyFalseAlarms = familyAlarm.filter { $0 }.count
      report.familyFalseAlarmUpperBound = BinomialBounds.upper(
        events: report.familyFalseAlarms, trials: comparisons)
    }
    return report
  }

  /// `count` of `samples` drawn without replacement: the first `count` of a shuffled copy.
  static func draw(_ samples: [Double], _ count: Int, _ rng: inout SplitMix64) -> [Double] {
    var pool = samples
    rng.shuffle(&pool)
    return Array(pool[..<count])
  }
}
