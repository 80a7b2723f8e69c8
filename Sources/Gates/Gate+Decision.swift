import Statistics

/// The gate's decisions in one place: what one baseline check's numbers mean (`baselineStatus`),
/// and what an inconclusive check counts as (`InconclusivePolicy`). `Gate.checkBaseline`,
/// `bench gate` and `GatePower` (which measures the rule CI runs) all decide through these.
extension Gate {
  /// What an inconclusive check counts as: `bench gate --inconclusive fail|pass`. CI and the
  /// nightly use `fail`: a check that could not show the build healthy does not let it land.
  public enum InconclusivePolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// An inconclusive check fails the gate (exit 1), named as inconclusive.
    case fail
    /// An inconclusive check is reported and does not fail the gate.
    case pass
  }

  /// The baseline gate's verdict for one phase of one cell, from the ratio of medians
  /// (new / baseline) and the two-sided Mann–Whitney p:
  /// - `.pass`: the ratio is within 1 + `threshold`;
  /// - `.fail`: slower beyond the threshold **and** significantly so (p < `alpha`);
  /// - `.inconclusive`: slower beyond the threshold, not significantly: more runs would decide.
  ///
  /// A ratio that is not a number (both medians infinite: every run failed on both sides) is
  /// inconclusive: nothing shows the phase within the threshold.
  public static func baselineStatus(ratio: Double, pValue: Double, threshold: Double, alpha: Double)
    -> GateOutcome.Status
  {
    if ratio.isNaN { return .inconclusive }
    guard ratio > 1 + threshold else { return .pass }
    return pValue < alpha ? .fail : .inconclusive
  }

  /// The robust noise of a cell's samples of one phase: 1.4826 × MAD of the finished runs over
  /// their median (0.03 = 3 %); NaN with fewer than 2 finished runs. What the noise ceiling reads.
  public static func noise(_ samples: [Double]) -> Double {
    let finished = samples.filter(\.isFinite)
    guard finished.count >= 2 else { return .nan }
    let median = Statistics.median(finished)
    return median > 0 ? Statistics.robustStandardDeviation(finished) / median : .nan
  }

  /// True when either side's noise (`noise`) is above `ceiling`: a cell too noisy for an
  /// inconclusive check to count as a failure (`BaselineOptions.noiseCeiling`).
  public static func aboveNoiseCeiling(_ ceiling: Double?, reference: [Double], new: [Double]) -> Bool {
    guard let ceiling else { return false }
    return [noise(reference), noise(new)].contains { $0 > ceiling }
  }

  /// True when a check with `status` fails the gate under `policy`.
  public static func fails(_ status: GateOutcome.Status, inconclusive policy: InconclusivePolicy) -> Bool {
    status == .fail || (status == .inconclusive && policy == .fail)
  }
}
