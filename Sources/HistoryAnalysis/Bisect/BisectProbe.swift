import Gates
import ResultsSchema
import RunAnalysis

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
    pValue: Double? = nil, runs: Int = 0, folder: String? = nil, note: String = ""
  ) {
    self.commit = commit
    self.subject = subject
    self.verdict = verdict
    self.ratio = ratio
    self.ci95 = ci95
    self.pValue = pValue
    self.runs = runs
    self.folder = folder
    self.note = note
  }

  /// The baseline gate's verdict on `phase` of the cell `condition`/`config` of `probe` against
  /// `good` (the gate's rule: `threshold`, by default its 5 %, α = 0.01, failed runs ranked
  /// slowest): a failed
  /// check is slower, a passed one not slower, anything else inconclusive. The failure-rate
  /// check is not bisected: a run that failed already counts as slower than any in the phase.
  package static func verdict(
    good: BenchResults, probe: BenchResults, condition: String, config: String, phase: String,
    threshold: Double = 0.05
  ) -> GateOutcome? {
    var options = Gate.BaselineOptions()
    options.phases = [phase]
    options.defaultThreshold = threshold
    let report = Gate.checkBaseline(probe, against: good, options: options)
    let name = "\(phase) \(config)/\(condition)"
    return report.outcomes.first { $0.phase == phase && $0.name == name && $0.kind == .baseline }
  }

  /// This probe's verdict read from a gate outcome: `fail` is slower, `pass` not slower, the
  /// rest (inconclusive, skipped) inconclusive.
  package static func reading(_ status: GateOutcome.Status) -> BisectVerdict {
    switch status {
    case .fail: .slower
    case .pass: .notSlower
    case .inconclusive, .skipped: .inconclusive
    }
  }

  /// The numbers: `ratio 1.412 (95 % CI 1.380–1.450), p = 2.0e-04, 6 runs per side`, or the
  /// note when there is no ratio.
  package var numbers: String {
    guard let ratio else { return note }
    let ci =
      ci95.map { $0.count == 2 ? " (95 % CI \(NumberFormat.ratio($0[0]))–\(NumberFormat.ratio($0[1])))" : "" }
      ?? ""
    return
      "ratio \(NumberFormat.ratio(ratio))\(ci), \(pValue.map { NumberFormat.p($0) } ?? "p = –"), \(runs) runs per side"
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
