extension Gate {
  /// The statistic every gate and comparison decides by: the one place that chooses it (see
  /// ``GateStatistic``). To gate on another statistic, conform a type to ``GateStatistic`` and
  /// return it here.
  package static var statistic: any GateStatistic { MedianRatioStatistic() }

  /// Pairs between a sequential comparison's looks: 4 (issue 39).
  package static let sequentialPairsPerLook = 4
  /// A sequential comparison's most looks by default: 9, so at most 36 runs a side.
  package static let sequentialLooks = 9

  /// The sequential design `bench ab` (by default), CI's code-against-code step, the planted
  /// check and `bench bisect`'s probes stop by (issue 39), chosen here beside the fixed
  /// ``statistic`` whose rank test and ratio of medians it reads at each look: looks every
  /// ``sequentialPairsPerLook`` pairs up to `maximumRuns` a side (rounded up to whole looks;
  /// nil: ``sequentialLooks`` looks), the baseline gate's α = 0.01 family-wise over the `cells`
  /// the comparison gates (conditions × configurations: α / `cells` a cell, so SLOWER or FASTER
  /// in any cell of an unchanged commit stays within α), `threshold` (a fraction, 0.05 by
  /// default), β = 0.05 a cell, powered for 10 % (or twice the threshold, if larger), Pocock-type
  /// spending (docs/gates-and-ci.md, "Sequential A/B").
  package static func sequentialDesign(
    threshold: Double = 0.05, alpha: Double = 0.01, maximumRuns: Int? = nil, cells: Int = 1
  )
    -> SequentialDesign
  {
    let k = sequentialPairsPerLook
    let looks = maximumRuns.map { Swift.max(1, ($0 + k - 1) / k) } ?? sequentialLooks
    return SequentialDesign(
      pairsPerLook: k, looks: looks, alpha: alpha, beta: 0.05, threshold: threshold,
      powerShift: Swift.max(0.10, 2 * threshold), cells: cells)
  }

  /// The sequential design of a `bench bisect` probe (issue 37, item 5): ``sequentialDesign``'s
  /// looks, α and `threshold`, but SAME (the probe's "not slower") is equivalence within the
  /// threshold itself, not within the shift a gate is powered for, and at α too: the ratio's
  /// upper bound inside 1 + `threshold` at the gate's error rate over all the looks, so a commit
  /// is cleared only on that evidence. SLOWER is ``sequentialDesign``'s.
  package static func bisectDesign(threshold: Double, maximumRuns: Int, alpha: Double = 0.01)
    -> SequentialDesign
  {
    let k = sequentialPairsPerLook
    return SequentialDesign(
      pairsPerLook: k, looks: Swift.max(1, (maximumRuns + k - 1) / k), alpha: alpha, beta: alpha,
      threshold: threshold, powerShift: threshold)
  }
}
