import Gates
import ResultsSchema
import RunAnalysis
import Statistics

/// One measurement of `bench bisect`: a commit's camera-app against GOOD's, interleaved (one
/// `bench ab` session), and what the baseline gate read in the bisected cell and phase.
package struct BisectProbe: Sendable, Equatable, Codable {
  /// The commit measured (B; A is GOOD).
  package var commit: String
  /// The first line of its message.
  package var subject: String
  /// What the gate read.
  package var verdict: BisectVerdict
  /// B's median over A's (nil when the probe did not run or nothing reached the phase).
  package var ratio: Double?
  /// The ratio's bootstrap 95 % interval.
  package var ci95: [Double]?
  /// The ratio's upper confidence bound that cleared the commit or did not: the rank test
  /// inverted (``upperBound(reference:new:z:)``) at the gate's α (`--fixed`), or at the look's
  /// bound of the sequential design; `+∞` when these runs cannot bound it. Not slower needs it
  /// inside 1 + threshold.
  package var upperBound: Double?
  /// The two-sided Mann–Whitney p-value.
  package var pValue: Double?
  /// Counted runs per side in the session that decided (the last one, when more runs were asked).
  package var runs: Int
  /// The results folder of that session (`A/`, `B/`, `comparison.txt`), or nil when none ran.
  package var folder: String?
  /// The gate's line for the phase, or why the commit could not be measured.
  package var note: String

  /// Creates a probe's record.
  package init(
    commit: String, subject: String, verdict: BisectVerdict, ratio: Double? = nil, ci95: [Double]? = nil,
    upperBound: Double? = nil, pValue: Double? = nil, runs: Int = 0, folder: String? = nil, note: String = ""
  ) {
    self.commit = commit
    self.subject = subject
    self.verdict = verdict
    self.ratio = ratio
    self.ci95 = ci95
    self.upperBound = upperBound
    self.pValue = pValue
    self.runs = runs
    self.folder = folder
    self.note = note
  }

  /// What a probe read: the baseline gate's outcome on the phase (its numbers), the ratio's
  /// upper bound at the gate's α and the verdict they make.
  package struct Reading: Sendable, Equatable {
    /// The baseline gate's check of the phase.
    package var outcome: GateOutcome
    /// The ratio's upper confidence bound at 1 − α (``upperBound(reference:new:z:)``).
    package var upperBound: Double
    /// Slower, not slower or inconclusive (undecided).
    package var verdict: BisectVerdict
  }

  /// The probe's verdict on `phase` of the cell `condition`/`config` of `probe` against `good`
  /// (issue 37, item 5), three ways, at the baseline gate's `threshold` (by default its 5 %) and
  /// `alpha` (its 0.01), failed runs ranked slowest:
  /// - **slower**: the gate fails the phase (the ratio beyond 1 + threshold, p < α);
  /// - **not slower**: evidence that it is not: the ratio's upper bound at 1 − α (the one-sided
  ///   rank test inverted) is inside 1 + threshold — a ratio inside the threshold alone is not;
  /// - **inconclusive** (undecided): neither; more runs may decide, and until then the commit is
  ///   not cleared.
  ///
  /// Nil when the gate checked no such phase. The failure-rate check is not bisected: a run that
  /// failed already counts as slower than any in the phase.
  package static func verdict(
    good: BenchResults, probe: BenchResults, condition: String, config: String, phase: String,
    threshold: Double = 0.05, alpha: Double = 0.01
  ) -> Reading? {
    var options = Gate.BaselineOptions()
    options.phases = [phase]
    options.defaultThreshold = threshold
    options.alpha = alpha
    let report = Gate.checkBaseline(probe, against: good, options: options)
    let name = "\(phase) \(config)/\(condition)"
    guard
      let outcome = report.outcomes.first(where: {
        $0.phase == phase && $0.name == name && $0.kind == .baseline
      }
      )
    else { return nil }
    let key = { (cell: BenchResults.Cell) in cell.condition == condition && cell.config == config }
    let reference = good.cells.first(where: key)?.rankedSamples(for: phase) ?? []
    let new = probe.cells.first(where: key)?.rankedSamples(for: phase) ?? []
    let bound = upperBound(reference: reference, new: new, z: NormalDistribution.quantile(1 - alpha))
    return Reading(
      outcome: outcome, upperBound: bound,
      verdict: reading(outcome.status, upperBound: bound, threshold: threshold))
  }

  /// The verdict from the gate's status and the ratio's upper bound: `fail` is slower; an upper
  /// bound inside 1 + `threshold` not slower; anything else (a pass on a ratio alone, an
  /// inconclusive or skipped check) inconclusive.
  package static func reading(_ status: GateOutcome.Status, upperBound: Double, threshold: Double)
    -> BisectVerdict
  {
    if status == .fail { return .slower }
    return upperBound < 1 + threshold ? .notSlower : .inconclusive
  }

  /// The upper confidence bound of the ratio `new` / `reference` that the one-sided rank test
  /// gives at critical value `z` (2.326 for α = 0.01): the smallest factor s for which `new` is
  /// significantly smaller than `reference` scaled by s — the standardised Mann–Whitney statistic
  /// of new against s·reference (as ``SequentialDesign/rankZ(reference:new:)``, ties ½) below −z.
  /// The rank test inverted, as the Hodges–Lehmann interval is: the count of pairs where new
  /// is larger than s·reference is the count of pairwise ratios above s, so the bound is one of
  /// those ratios, the (k + 1)-th largest where k is the most pairs the test lets above s. A
  /// failed run (`+∞`) is slower than any finished one at any s, and two failed runs tie at any s.
  /// `+∞` when even no pair above would not be significant (too few runs), or a side is empty.
  package static func upperBound(reference: [Double], new: [Double], z: Double) -> Double {
    let m = Double(reference.count)
    let n = Double(new.count)
    guard m > 0, n > 0 else { return .infinity }
    var ratios: [Double] = []
    ratios.reserveCapacity(reference.count * new.count)
    var tied = 0.0
    for b in new {
      for a in reference {
        let r = b / a
        if r.isNaN { tied += 0.5 } else { ratios.append(r) }
      }
    }
    // U(s) = #{ratio > s} + ½ #{ratio = s} + ½ (pairs tied at every s) must be below this.
    let limit = m * n / 2 - z * (m * n * (m + n + 1) / 12).squareRoot() - tied
    // The most pairs allowed above s: the largest whole k < limit (none: no s is significant).
    guard limit > 0 else { return .infinity }
    let k = Int(limit.rounded(.up)) - 1
    guard k < ratios.count else { return 0 }
    ratios.sort(by: >)
    return ratios[k]
  }

  /// The numbers: `ratio 1.412 (95 % CI 1.380–1.450), at most 1.470, p = 2.0e-04, 6 runs per
  /// side`, or the note when there is no ratio.
  package var numbers: String {
    guard let ratio else { return note }
    let ci =
      ci95.map { $0.count == 2 ? " (95 % CI \(NumberFormat.ratio($0[0]))–\(NumberFormat.ratio($0[1])))" : "" }
      ?? ""
    let bound = upperBound.map { $0.isFinite ? ", at most \(NumberFormat.ratio($0))" : ", unbounded" } ?? ""
    return
      "ratio \(NumberFormat.ratio(ratio))\(ci)\(bound), \(pValue.map { NumberFormat.p($0) } ?? "p = –"), \(runs) runs per side"
  }

  /// The shift against GOOD: `+41.2 % (ratio 1.412 (95 % CI 1.380–1.450), p = 2.0e-04, 6 runs
  /// per side)`.
  package var shift: String { "\(ratio.map { NumberFormat.change($0) } ?? "–") (\(numbers))" }

  /// One line of evidence: `abc123def456 slower       ratio 1.412 (…), p = …, 6 runs per side  subject`.
  package var line: String {
    let label = verdict.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0)
    return "\(commit.prefix(12)) \(label) \(numbers)  \(subject)"
  }
}
