/// `bench bisect`'s binary search over the commits after GOOD, oldest first, for the first one
/// whose probe (``BisectVerdict``) reads slower than GOOD. Pure: it says which commit to measure
/// next and what the probes so far show; the caller measures.
///
/// As `git bisect`: GOOD is good; the last commit (BAD) is taken as slower until measured, so
/// the search halves the range without measuring BAD first — but a culprit is named only when
/// its own probe read slower, so when the search ends on a BAD it never measured, BAD is measured
/// last (not slower there: nothing regressed). The split point balances the outcomes still
/// possible (each commit of the range, or none while BAD is unmeasured), so a range of `n`
/// commits takes at most ⌈log₂(n + 1)⌉ probes: 4 for 15 commits, 5 for 16 to 31. A commit that
/// cannot be measured (it does not build) is skipped as `git bisect skip` does: the next probe is
/// the unskipped commit nearest the split point, and when only skipped commits are left between
/// the last good and the first slower one, the search ends naming them all.
package struct BisectSearch: Sendable, Equatable {
  /// The commits after GOOD, oldest first; the last is BAD.
  package let commits: [String]
  /// The index of the last commit known not slower (-1: GOOD itself).
  package private(set) var lastGood = -1
  /// The index of the first commit known slower (its probe read slower), or the last index,
  /// not yet measured, while ``badMeasured`` is false.
  package private(set) var firstBad: Int
  /// Whether ``firstBad``'s probe read slower (false: only assumed, as BAD is at the start).
  package private(set) var badMeasured = false
  /// The indices that could not be measured.
  package private(set) var skipped: Set<Int> = []
  /// Whether BAD itself was measured and read not slower.
  package private(set) var nothingRegressed = false

  /// What the search says to do next, or how it ended.
  package enum Step: Sendable, Equatable {
    /// Measure the commit at this index.
    case probe(Int)
    /// The commit at this index is the first slower one: its probe read slower, the one before
    /// it (or GOOD) did not.
    case culprit(Int)
    /// BAD's probe did not read slower: nothing in the range regressed.
    case nothingRegressed
    /// Only commits that could not be measured are left: the first slower commit is one of these
    /// indices (the last one's probe read slower; when it was skipped too — BAD did not build —
    /// possibly none of them).
    case untestable(ClosedRange<Int>)
  }

  /// Starts a search over `commits` (oldest first, at least one; the last is BAD).
  package init(commits: [String]) {
    precondition(!commits.isEmpty, "a bisect needs at least one commit after GOOD")
    self.commits = commits
    firstBad = commits.count - 1
  }

  /// The next step: a commit to measure, or the end.
  package var next: Step {
    if nothingRegressed { return .nothingRegressed }
    if badMeasured && lastGood + 1 == firstBad { return .culprit(firstBad) }
    // Measurable commits left: before the first slower one, or up to BAD while it is unmeasured.
    let high = badMeasured ? firstBad - 1 : firstBad
    let candidates = (lastGood + 1...max(lastGood + 1, high)).filter { $0 <= high && !skipped.contains($0) }
    // The outcomes still possible: each commit in (lastGood, firstBad], and "none" while BAD
    // is unmeasured. The split gives the slower side half of them, rounded down.
    let outcomes = firstBad - lastGood + (badMeasured ? 0 : 1)
    let split = lastGood + max(1, outcomes / 2)
    guard let nearest = candidates.min(by: { (abs($0 - split), $0) < (abs($1 - split), $1) }) else {
      return .untestable((lastGood + 1)...firstBad)
    }
    return .probe(nearest)
  }

  /// The end of the search, or nil while there is a commit to measure.
  package var outcome: Step? {
    if case .probe = next { return nil }
    return next
  }

  /// Takes the probe of the commit at `index`: slower moves the first bad commit down to it; not
  /// slower moves the last good one up to it (not slower at BAD ends the search: nothing
  /// regressed); untestable skips it. An inconclusive (undecided) probe is the caller's to settle
  /// (more runs, or the search stops): it changes nothing here, and never clears the commit.
  package mutating func record(_ index: Int, _ verdict: BisectVerdict) {
    switch verdict {
    case .slower:
      firstBad = min(firstBad, index)
      badMeasured = true
    case .notSlower:
      if index == commits.count - 1 { nothingRegressed = true }
      lastGood = max(lastGood, index)
    case .untestable: skipped.insert(index)
    case .inconclusive: break
    }
  }
}

/// What one probe of `bench bisect` found: the commit's cell against GOOD's, three ways at the
/// baseline gate's α (``BisectProbe/verdict(good:probe:condition:config:phase:threshold:alpha:)``,
/// or sequentially ``Gate/bisectDesign(threshold:maximumRuns:alpha:)``), or that it could not be
/// measured.
package enum BisectVerdict: String, Sendable, Equatable, Codable {
  /// The gate failed the phase: slower beyond its threshold with p < α.
  case slower
  /// Shown within the threshold: the ratio's upper bound at the gate's α is inside it.
  case notSlower = "not-slower"
  /// Undecided after every run `--max-runs` allowed: neither slower nor shown within the
  /// threshold. It clears nothing: the search stops and reports the range it could not narrow.
  case inconclusive
  /// camera-app did not build at the commit (or the probe could not run it).
  case untestable
}
