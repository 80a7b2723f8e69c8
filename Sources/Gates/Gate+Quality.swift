import ResultsSchema
import RunAnalysis
import Statistics

extension Gate {
  /// The per-run counts the quality check compares by default: what the probe saw go wrong on
  /// the screen (dropped and stale frames), the compositor's missed refresh deadlines, and events
  /// the app forged under the runner's or the probe's names. A forged light board fails its run,
  /// so the failure rate already gates it.
  public static let defaultQualityCounts: [CountKey] = [
    .droppedFrames, .staleFrames, .missedDeadlines, .forgedEvents,
  ]

  /// The name of the quality check in gate reports (`quality deferred/cold`).
  public static let qualityPhase = "quality"

  /// The quality check of one cell against the baseline's same cell, gated like failed runs
  /// (``checkFailureRate(_:against:options:)``): for each of `options.qualityCounts`, the share of
  /// runs that counted one or more (dropped frames in 20 of 20 runs) is compared with the
  /// baseline's by Fisher's exact test, one-sided; a share that is higher **and** significant
  /// fails the check. The counts of a cell share the gate's α (Bonferroni: α / the counts
  /// compared), so a cell's quality check raises a false alarm no more often than one phase's.
  /// There is no allowed rise as the failure rate has: dropped and stale frames come and go with
  /// the machine's load, and a fixed rise of a few points would fail healthy builds; a count that
  /// appears in every run where the baseline had none (20 of 20 against 0 of 20, p = 7e-12) is
  /// far beyond chance at CI's run counts.
  ///
  /// A count that either side's runs do not record (older results; `missed_deadlines` on X11)
  /// is not compared, and the message says so. Nil when no count is compared.
  public static func checkQuality(
    _ cell: BenchResults.Cell, against base: BenchResults.Cell, options: BaselineOptions
  ) -> GateOutcome? {
    let compared = options.qualityCounts.filter { key in
      cell.records.contains { $0.counts[key] != nil } && base.records.contains { $0.counts[key] != nil }
    }
    guard !compared.isEmpty else { return nil }
    let alpha = options.alpha / Double(compared.count)
    let alphaText =
      compared.count == 1
      ? "α = \(PowerAdvice.formatAlpha(alpha))"
      : "α = \(PowerAdvice.formatAlpha(alpha)) (\(PowerAdvice.formatAlpha(options.alpha)) shared by"
        + " \(compared.count) counts)"
    var parts: [String] = []
    var none: [String] = []  // compared, and no run on either side counted one
    var failed = false
    var smallestP = 1.0
    for key in options.qualityCounts {
      guard compared.contains(key) else {
        let inResults = cell.records.contains { $0.counts[key] != nil }
        let inBaseline = base.records.contains { $0.counts[key] != nil }
        if inResults != inBaseline {
          parts.append("\(key.rawValue) not recorded in \(inResults ? "the baseline" : "the results")")
        }
        continue
      }
      let now = QualityShare(cell, key)
      let before = QualityShare(base, key)
      guard now.affected + before.affected > 0 else {
        none.append(key.rawValue)
        continue
      }
      let p = FisherExact.greaterPValue(
        failed: now.affected, runs: now.runs, baselineFailed: before.affected, baselineRuns: before.runs)
      smallestP = min(smallestP, p)
      let higher = now.rate > before.rate
      let significant = higher && p < alpha
      failed = failed || significant
      let verdict =
        !higher ? "no rise" : significant ? "a significant rise" : "a rise, not significant"
      parts.append(
        "\(key.rawValue) in \(now.affected) of \(now.runs) runs (\(now.total) in all) vs \(before.affected)"
          + " of \(before.runs) in the baseline (\(NumberFormat.p(p))): \(verdict)")
    }
    return GateOutcome(
      kind: .baseline, name: "\(qualityPhase) \(CellKey(cell).name)", status: failed ? .fail : .pass,
      message: (parts
        + (none.isEmpty ? [] : ["no run of either side counted \(none.joined(separator: ", "))"]))
        .joined(separator: "; ") + "; one-sided Fisher exact at \(alphaText)",
      phase: qualityPhase, pValue: smallestP)
  }
}

/// How many of a cell's runs recorded a quality count, how many of those counted one or more, and
/// the count summed over them.
private struct QualityShare {
  var runs = 0
  var affected = 0
  var total = 0

  init(_ cell: BenchResults.Cell, _ key: CountKey) {
    for record in cell.records {
      guard let n = record.counts[key] else { continue }
      runs += 1
      if n > 0 { affected += 1 }
      let (sum, overflow) = total.addingReportingOverflow(max(0, n))  // a hostile file's counts
      total = overflow ? Int.max : sum
    }
  }

  /// The share of runs that counted one or more.
  var rate: Double { runs > 0 ? Double(affected) / Double(runs) : 0 }
}
