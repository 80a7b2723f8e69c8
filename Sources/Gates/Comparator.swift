import LaunchContract
import ResultsSchema
import RunAnalysis
/// A/B comparisons: between two results files (`bench compare`), and between configurations
/// within one run (`results.json` `comparisons`, and the headline).
public enum Comparator {
  /// Every phase of every cell present in both `a` and `b` (cells matched by config, condition
  /// and camera), as "B vs A": ratio = median(B)/median(A), verdict for B relative to A. The
  /// samples are ranked (`rankedSamples(for:)`): a failed run counts after every finished run, so
  /// a change that makes the slowest launches time out does not look faster.
  public static func compare(_ a: BenchResults, _ b: BenchResults, options: ComparisonOptions = .init())
    -> [PhaseComparison]
  {
    var work: [(key: CellKey, phase: String, a: [Double], b: [Double])] = []
    for cellA in a.orderedCells {
      let key = CellKey(cellA)
      guard let cellB = b.cell(key) else { continue }
      // Each cell's phase names once: they come from every record, not from one phase.
      let phasesB = Set(cellB.phaseNames)
      for phase in cellA.phaseNames where phasesB.contains(phase) {
        if let wanted = options.phases, !wanted.contains(phase) { continue }
        let sa = cellA.rankedSamples(for: phase)
        let sb = cellB.rankedSamples(for: phase)
        guard !sa.isEmpty || !sb.isEmpty else { continue }
        work.append((key, phase, sa, sb))
      }
    }
    let statistic = Gate.statistic
    return concurrentMap(work) { w in
      let result = statistic.compare(
        reference: w.a, new: w.b, threshold: options.threshold, alpha: options.alpha,
        resamples: options.resamples,
        seed: options.seed(for: w.key.config, w.key.condition, w.key.camera, w.phase))
      return PhaseComparison(
        phase: w.phase, config: w.key.config, condition: w.key.condition, camera: w.key.camera, result: result
      )
    }
  }

  /// The cells present in only one of the files, as `deferred/cold` names: (only in A, only in B).
  public static func unmatchedCells(_ a: BenchResults, _ b: BenchResults) -> (
    onlyA: [String], onlyB: [String]
  ) {
    let ka = Set(a.cells.map(CellKey.init))
    let kb = Set(b.cells.map(CellKey.init))
    return (ka.subtracting(kb).sorted().map(\.name), kb.subtracting(ka).sorted().map(\.name))
  }

  /// For each condition (and camera), each pair of configurations in canonical order
  /// (deferred vs eager, deferred vs manual, …) and each phase both have: a `Comparison` with
  /// `a` the earlier configuration, `ratio_p50` = median(a)/median(b), its bootstrap 95 % CI,
  /// the two-sided Mann–Whitney p-value and the verdict for `a` relative to `b`
  /// (threshold 2 %, α = 0.05). What the runner stores in `results.json` `comparisons`. Failed runs
  /// rank after every finished run; a pair where a median run did not finish has no finite ratio
  /// and is left out (the headline says so instead: `timeoutHeadlines(_:)`).
  public static func withinRunComparisons(_ cells: [BenchResults.Cell], options: ComparisonOptions = .init())
    -> [BenchResults.Comparison]
  {
    let sorted = cells.sorted { CellKey($0) < CellKey($1) }
    var groups: [(String, String, [BenchResults.Cell])] = []
    for cell in sorted {
      if let i = groups.firstIndex(where: { $0.0 == cell.condition && $0.1 == cell.camera }) {
        groups[i].2.append(cell)
      } else {
        groups.append((cell.condition, cell.camera, [cell]))
      }
    }
    var work:
      [(condition: String, camera: String, a: String, b: String, phase: String, sa: [Double], sb: [Double])] =
        []
    for (condition, camera, group) in groups {
      for i in group.indices {
        for j in group.indices where j > i {
          let a = group[i]
          let b = group[j]
          let phasesB = Set(b.phaseNames)
          for phase in a.phaseNames where phasesB.contains(phase) {
            if let wanted = options.phases, !wanted.contains(phase) { continue }
            let sa = a.rankedSamples(for: phase)
            let sb = b.rankedSamples(for: phase)
            guard !sa.isEmpty, !sb.isEmpty else { continue }
            work.append((condition, camera, a.config, b.config, phase, sa, sb))
          }
        }
      }
    }
    return concurrentMap(work) { w -> BenchResults.Comparison? in
      // results.json's `ratio_p50` is the ratio of medians by definition, whatever the gates use.
      let r = SampleComparison(
        reference: w.sb, new: w.sa, threshold: options.threshold, alpha: options.alpha,
        resamples: options.resamples,
        seed: options.seed(for: w.a, w.b, w.condition, w.camera, w.phase))
      // A ratio against a zero median (a phase that takes no time in b, such as
      // deferred_start when nothing was deferred) has no meaning; it is left out. So is one with a
      // median beyond the run timeout (results.json cannot hold +∞; `timeoutHeadlines` says it).
      // An interval with no upper bound (a's resampled median among its failed runs in more than
      // 2.5 % of the resamples) is stored as `[]`: JSON has no +∞.
      let unbounded = r.ci95.upper == .infinity
      guard r.ratio.isFinite, r.ci95.lower.isFinite, r.ci95.upper.isFinite || unbounded,
        r.newMedian.isFinite, r.referenceMedian.isFinite
      else { return nil }
      return BenchResults.Comparison(
        phase: w.phase, condition: w.condition, a: w.a, b: w.b, ratioP50: r.ratio,
        ci95: unbounded ? [] : r.ci95.array, pValue: r.pValue, verdict: r.verdict.rawValue)
    }.compactMap { $0 }
  }

  /// One line for people about a first-frame comparison, e.g.
  /// "deferred reaches the first frame 2.1× sooner than eager (cold)"; for other phases,
  /// "deferred is 1.6× faster than eager at start_running (cold)". Below 1.5× the difference is
  /// a share of the slower median ("4 % sooner"), never "1.0×". Nil when the ratio is unusable.
  public static func headline(for c: BenchResults.Comparison) -> String? {
    guard c.ratioP50.isFinite, c.ratioP50 > 0 else { return nil }
    let firstFrame = c.phase == PhaseName.firstFrameObserved
    let verdict = c.verdict.flatMap(Verdict.init(rawValue:))
    switch verdict {
    case .faster, .slower:
      let (winner, loser, factor) = c.ratioP50 < 1 ? (c.a, c.b, 1 / c.ratioP50) : (c.b, c.a, c.ratioP50)
      let f = NumberFormat.sooner(factor: factor)
      return firstFrame
        ? "\(winner) reaches the first frame \(f) sooner than \(loser) (\(c.condition))"
        : "\(winner) is \(f) faster than \(loser) at \(c.phase) (\(c.condition))"
    case .notEnoughData:
      return "\(c.a) vs \(c.b) (\(c.condition)): too few runs to compare \(c.phase)"
    case .noSignificantDifference, nil:
      let detail = "\(c.condition): ratio \(NumberFormat.ratio(c.ratioP50)), \(NumberFormat.p(c.pValue))"
      let factor = c.ratioP50 < 1 ? 1 / c.ratioP50 : c.ratioP50
      if factor >= 1.1 {
        // A large difference the test cannot confirm: say both, instead of "equal".
        let (winner, loser) = c.ratioP50 < 1 ? (c.a, c.b) : (c.b, c.a)
        let f = NumberFormat.sooner(factor: factor)
        return firstFrame
          ? "\(winner) reaches the first frame \(f) sooner than \(loser), not significant with these runs (\(detail))"
          : "\(winner) is \(f) faster than \(loser) at \(c.phase), not significant with these runs (\(detail))"
      }
      return firstFrame
        ? "\(c.a) and \(c.b) reach the first frame equally soon within noise (\(detail))"
        : "\(c.a) and \(c.b) take the same time at \(c.phase) within noise (\(detail))"
    }
  }

  /// The headline lines: every `first_frame_observed` comparison, in order.
  public static func headlines(_ comparisons: [BenchResults.Comparison]) -> [String] {
    comparisons.filter { $0.phase == PhaseName.firstFrameObserved }.compactMap(headline(for:))
  }

  /// The headline lines of `results` (its stored comparisons, or computed from its cells when
  /// none), then a line for each pair whose median run did not reach the first frame in time.
  public static func headlines(_ results: BenchResults) -> [String] {
    let comparisons =
      results.comparisons.isEmpty
      ? withinRunComparisons(
        results.cells, options: ComparisonOptions(phases: [PhaseName.firstFrameObserved]))
      : results.comparisons
    return headlines(comparisons) + timeoutHeadlines(results)
  }
}
