import Foundation
import Sampling
import Statistics

/// A group-sequential A/B design (issue 39): interleaved pairs, a look every ``pairsPerLook``
/// pairs, at most ``looks`` looks, and at each look a decision on the rank statistic that stops as
/// soon as it can say slower, faster or the same.
///
/// Why group-sequential and not anytime-valid: bench already looks in batches (a look costs a
/// rank test, not a run), the gate's statistic is the Mann–Whitney rank test whose standardised
/// statistic is asymptotically a canonical group-sequential process (equal information per look
/// here, since every look adds the same pairs), and a Lan–DeMets O'Brien–Fleming-type spending
/// function spends almost nothing early, so the last look's bound is close to the fixed test's
/// and the maximum N need be only a little above the fixed N. Anytime-valid tests (mixture SPRT,
/// confidence sequences) pay for looking after every run with wider bounds everywhere.
///
/// Three one-sided tests share the boundary shape, each spending its own error over the looks:
/// - **slower**: the rank z of new against reference crosses the efficacy bound spending
///   ``cellAlpha``/2, and the ratio of medians is beyond 1 + threshold (as `Verdict.decide` asks);
/// - **faster**: the mirror, spending the other ``cellAlpha``/2;
/// - **same**: no change as large as ``powerShift`` either way (two one-sided rank tests against
///   the reference scaled by 1 ± powerShift), each crossing the bound spending β: the β-spending
///   futility bound, read on the statistic shifted by the change the design is powered for.
///
/// At the last look without a crossing the verdict is unknown. A failed run is `+∞` and ranks
/// slowest, so the failure rate is part of the same rank decision.
///
/// α is family-wise over the ``cells`` a comparison gates (a `bench ab` run's conditions ×
/// configurations): each cell spends α / cells (Bonferroni), so SLOWER or FASTER in any cell when
/// nothing changed stays within α whatever the cells' correlation. β (SAME) stays a cell's.
package struct SequentialDesign: Sendable, Hashable, Codable {
  /// Pairs added between looks.
  package var pairsPerLook: Int
  /// The most looks; the maximum runs a side is `looks × pairsPerLook`.
  package var looks: Int
  /// The family-wise false-alarm rate (slower and faster together, in any of ``cells``), over all
  /// the looks.
  package var alpha: Double
  /// The cells that share ``alpha`` (at least 1): each spends ``cellAlpha``.
  package var cells: Int
  /// The error allowed to the equivalence (same) decision over all the looks.
  package var beta: Double
  /// The noise threshold (a fraction): slower needs a ratio beyond 1 + threshold.
  package var threshold: Double
  /// The change the design is powered to catch (a fraction, 0.10 for CI's step): SAME says no
  /// change that large either way, at β; it is the β-spending futility bound read on the rank
  /// statistic shifted by it.
  package var powerShift: Double
  /// The efficacy bound (one-sided z) at each look, spending ``cellAlpha``/2 a direction.
  package var efficacyBounds: [Double]
  /// The equivalence bound (one-sided z) at each look, spending β.
  package var equivalenceBounds: [Double]
  /// How the errors are spent over the looks.
  package var spending: Spending

  /// A Lan–DeMets spending function.
  package enum Spending: String, Sendable, Hashable, Codable {
    /// O'Brien–Fleming type: 2 − 2Φ(z₁₋ₐ/₂ / √t); almost nothing early.
    case obrienFleming
    /// Pocock type: a · ln(1 + (e − 1) t); evenly, so early stops come sooner.
    case pocock
  }

  /// Creates a design and computes its bounds (seeded Monte Carlo of the canonical process, so
  /// the same arguments always give the same bounds); `alpha` is shared by `cells` cells.
  package init(
    pairsPerLook: Int, looks: Int, alpha: Double, beta: Double, threshold: Double, powerShift: Double,
    spending: Spending = .pocock, cells: Int = 1
  ) {
    self.pairsPerLook = max(1, pairsPerLook)
    self.looks = max(1, looks)
    self.alpha = alpha
    self.cells = max(1, cells)
    self.beta = beta
    self.threshold = threshold
    self.spending = spending
    self.powerShift = powerShift
    // α/k leaves k times fewer paths crossing: k times the paths keeps the bounds as precise as
    // a one-cell design's (up to 8 cells, 1.6 million paths, about a second in a release build).
    efficacyBounds = Self.spendingBounds(
      looks: self.looks, total: alpha / Double(self.cells) / 2, spending: spending,
      paths: Self.boundPaths * min(self.cells, 8))
    equivalenceBounds = Self.spendingBounds(looks: self.looks, total: beta, spending: spending)
  }

  /// The most runs a side.
  package var maximumRuns: Int { looks * pairsPerLook }

  /// The false-alarm rate each cell spends: ``alpha`` / ``cells``.
  package var cellAlpha: Double { alpha / Double(cells) }

  /// The share of a one-sided `total` spent by information `t` (0…1).
  package static func spent(_ total: Double, at t: Double, spending: Spending) -> Double {
    guard t > 0 else { return 0 }
    switch spending {
    case .obrienFleming:
      return min(
        total, 2 * NormalDistribution.survival(NormalDistribution.quantile(1 - total / 2) / t.squareRoot()))
    case .pocock:
      return min(total, total * log(1 + (exp(1) - 1) * min(t, 1)))
    }
  }

  /// Seeded paths of the canonical process a bound is found on, for one cell.
  package static let boundPaths = 200_000

  /// The one-sided bounds that spend `total` over `looks` equally spaced looks: each look's bound
  /// makes the chance of a first crossing there the spending function's increment, found on
  /// `paths` (200,000; a design of k cells k times that, up to 8) seeded paths of the canonical
  /// process (increments of N(0, 1) per look). The first look's bound is exact (the normal
  /// quantile of its spend).
  package static func spendingBounds(looks: Int, total: Double, spending: Spending, paths: Int = boundPaths)
    -> [Double]
  {
    var rng = SplitMix64(seed: 0x5345_5155_454E_5449)
    var sums = [Double](repeating: 0, count: paths)
    var alive = [Bool](repeating: true, count: paths)
    var bounds: [Double] = []
    var stopped = 0
    for look in 1...looks {
      for index in 0..<paths { sums[index] += rng.nextGaussian() }
      let scale = Double(look).squareRoot()
      let share = spent(total, at: Double(look) / Double(looks), spending: spending)
      let target = Int((share * Double(paths)).rounded())
      let more = target - stopped
      if look == 1 {
        let bound = share > 0 ? NormalDistribution.quantile(1 - share) : .infinity
        bounds.append(bound)
        for index in 0..<paths where sums[index] > bound {
          alive[index] = false
          stopped += 1
        }
        continue
      }
      let count = alive.reduce(0) { $0 + ($1 ? 1 : 0) }
      guard more > 0, more < count else {
        bounds.append(.infinity)
        continue
      }
      let z = Self.largest(more + 1, of: sums, alive: alive, scale: scale, count: count)
      let bound = (z[more - 1] + z[more]) / 2
      bounds.append(bound)
      for index in 0..<paths where alive[index] && sums[index] / scale > bound {
        alive[index] = false
        stopped += 1
      }
    }
    return bounds
  }

  /// The `wanted` largest of the live paths' `sums / scale`, descending (`count` paths live,
  /// more than `wanted`): those above a cut that keeps at least `wanted`, sorted — the same values
  /// a sort of every live path would put first, without sorting them all (the cut starts where
  /// about four times `wanted` of N(0, 1) lie above and is lowered until enough do).
  static func largest(_ wanted: Int, of sums: [Double], alive: [Bool], scale: Double, count: Int) -> [Double]
  {
    var cut = NormalDistribution.quantile(1 - min(0.5, 4 * Double(wanted) / Double(count)))
    while true {
      var above: [Double] = []
      above.reserveCapacity(8 * wanted)
      for index in sums.indices where alive[index] {
        let z = sums[index] / scale
        if z > cut { above.append(z) }
      }
      if above.count >= wanted || cut == -.infinity {
        return Array(above.sorted(by: >).prefix(wanted))
      }
      cut = cut < -8 ? -.infinity : cut - 0.5
    }
  }

  /// The rank statistic standardised: (U − n₁n₂/2) / √(n₁n₂(n₁+n₂+1)/12), U counting pairs where
  /// `new` is larger (ties ½); positive when new is slower.
  package static func rankZ(reference: [Double], new: [Double]) -> Double {
    let n1 = Double(reference.count)
    let n2 = Double(new.count)
    guard n1 > 0, n2 > 0 else { return 0 }
    var u = 0.0
    for n in new {
      for r in reference {
        if n > r { u += 1 } else if n == r { u += 0.5 }
      }
    }
    return (u - n1 * n2 / 2) / (n1 * n2 * (n1 + n2 + 1) / 12).squareRoot()
  }

  /// The decision at look `look` (1-based) on the runs so far: a verdict when a bound is
  /// crossed, nil to keep running (unknown after the last look).
  package func decide(look: Int, reference: [Double], new: [Double]) -> SequentialVerdict? {
    let index = min(max(look, 1), looks) - 1
    let ratio = Statistics.median(new) / Statistics.median(reference)
    let z = Self.rankZ(reference: reference, new: new)
    if z > efficacyBounds[index], ratio > 1 + threshold { return .slower }
    if -z > efficacyBounds[index], ratio < 1 - threshold { return .faster }
    let belowUpper = -Self.rankZ(reference: reference.map { $0 * (1 + powerShift) }, new: new)
    let aboveLower = Self.rankZ(reference: reference.map { $0 * (1 - powerShift) }, new: new)
    if min(belowUpper, aboveLower) > equivalenceBounds[index] { return .same }
    return look >= looks ? .unknown : nil
  }

  /// Runs the design on runs given in pair order (`reference[i]` and `new[i]` are pair i),
  /// stopping at the first look that decides.
  package func run(reference: [Double], new: [Double]) -> SequentialOutcome {
    let available = min(reference.count, new.count)
    for look in 1...looks {
      let runs = min(look * pairsPerLook, available)
      let last = look == looks || runs == available
      if let verdict = decide(
        look: last ? looks : look, reference: Array(reference[..<runs]), new: Array(new[..<runs]))
      {
        return SequentialOutcome(verdict: verdict, look: look, runsPerSide: runs)
      }
      if last { return SequentialOutcome(verdict: .unknown, look: look, runsPerSide: runs) }
    }
    return SequentialOutcome(verdict: .unknown, look: looks, runsPerSide: available)
  }
}

/// What a sequential A/B concludes.
package enum SequentialVerdict: String, Sendable, Hashable, Codable, CaseIterable {
  /// Slower beyond the threshold, at the design's α.
  case slower = "SLOWER"
  /// Faster beyond the threshold, at the design's α.
  case faster = "FASTER"
  /// Equivalent within the threshold, at the design's β.
  case same = "SAME"
  /// No bound crossed by the last look.
  case unknown = "UNKNOWN"
}

/// Where a sequential A/B stopped and what it said.
package struct SequentialOutcome: Sendable, Hashable, Codable {
  /// The verdict.
  package var verdict: SequentialVerdict
  /// The look (1-based) it stopped at.
  package var look: Int
  /// The runs a side it used.
  package var runsPerSide: Int

  /// An outcome: `verdict` at `look`, after `runsPerSide` runs a side.
  package init(verdict: SequentialVerdict, look: Int, runsPerSide: Int) {
    self.verdict = verdict
    self.look = look
    self.runsPerSide = runsPerSide
  }
}

/// What a design costs and catches on recorded runs: the numbers `bench power --sequential` will
/// print (issue 39, item 3).
package struct SequentialPower: Sendable, Hashable {
  /// The planted uniform shift (a fraction).
  package var shift: Double
  /// Resampled A/B comparisons.
  package var trials: Int
  /// How many ended with each verdict.
  package var verdicts: [SequentialVerdict: Int]
  /// How many fail CI's step as `scripts/ab-gate` reads a cell: SLOWER, or UNKNOWN with the ratio
  /// of medians over the runs used beyond 1 + threshold (the fixed gate's inconclusive, which
  /// `--inconclusive fail` fails). A failed run (`+∞`) ranks slowest, so failures are inside it.
  package var stepFailures: Int = 0
  /// The mean runs a side used.
  package var meanRuns: Double
  /// The most runs a side any comparison used.
  package var worstRuns: Int
}

extension SequentialDesign {
  /// Runs the design `trials` times on both sides resampled (with replacement) from `recorded`
  /// (ms, a failed run `+∞`), the new side's finished runs multiplied by 1 + `shift`; seeded.
  package func power(recorded: [Double], shift: Double, trials: Int, seed: UInt64) -> SequentialPower {
    var rng = SplitMix64(seed: seed)
    var verdicts: [SequentialVerdict: Int] = [:]
    var total = 0
    var worst = 0
    var failing = 0
    guard !recorded.isEmpty else {
      return SequentialPower(shift: shift, trials: 0, verdicts: [:], meanRuns: .nan, worstRuns: 0)
    }
    for _ in 0..<trials {
      let reference = (0..<maximumRuns).map { _ in recorded[rng.nextIndex(below: recorded.count)] }
      let new = (0..<maximumRuns).map { _ in recorded[rng.nextIndex(below: recorded.count)] * (1 + shift) }
      let outcome = run(reference: reference, new: new)
      verdicts[outcome.verdict, default: 0] += 1
      if failsStep(outcome, reference: reference, new: new) { failing += 1 }
      total += outcome.runsPerSide
      worst = max(worst, outcome.runsPerSide)
    }
    return SequentialPower(
      shift: shift, trials: trials, verdicts: verdicts, stepFailures: failing,
      meanRuns: trials > 0 ? Double(total) / Double(trials) : .nan, worstRuns: worst)
  }

  /// Whether `outcome` of `reference` against `new` fails CI's step (`scripts/ab-gate`): SLOWER,
  /// or UNKNOWN with B's median over the runs used more than the threshold slower than A's.
  package func failsStep(_ outcome: SequentialOutcome, reference: [Double], new: [Double]) -> Bool {
    switch outcome.verdict {
    case .slower: return true
    case .faster, .same: return false
    case .unknown:
      let runs = min(outcome.runsPerSide, reference.count, new.count)
      guard runs > 0 else { return false }
      let a = Statistics.median(Array(reference[..<runs]))
      let b = Statistics.median(Array(new[..<runs]))
      // No ratio (both medians failed runs) fails, as ab-gate reads a cell without one.
      return !(b / a <= 1 + threshold)
    }
  }
}
