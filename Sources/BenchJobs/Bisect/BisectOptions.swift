import BenchHistory
import LaunchContract

/// `bench bisect`'s command line, checked.
package struct BisectOptions: Sendable {
  /// GOOD and BAD, as given.
  package var revisions: (good: String, bad: String)
  /// `--repo`, as given.
  package var repo: String?
  /// `--cell`: the condition and configuration bisected.
  package var condition = "warm"
  /// `--cell`'s configuration.
  package var config = "deferred"
  /// `--phase`.
  package var phase = PhaseName.firstFrameObserved
  /// `--fixed`: each probe runs `--runs` a side, doubled while inconclusive up to `--max-runs`;
  /// else (the default) each probe is one sequential session of at most `--max-runs` a side that
  /// stops when its verdict is clear (issue 39).
  package var fixed = false
  /// `--runs`: counted runs per side in a probe's first session (`--fixed`).
  package var runs = 10
  /// `--max-runs`: the most runs per side a probe is given (sequential: its design's maximum,
  /// rounded up to whole looks).
  package var maxRuns = 40
  /// `--threshold`: how much slower than GOOD (a fraction: 0.05 = 5 %) a probe must be to be
  /// slower; within it, not slower.
  package var threshold = 0.05
  /// `--db`.
  package var database: HistoryDatabaseURL
  /// `--out`, as given: the folder each probe's session goes in, and `bisect.json`.
  package var out: String?
  /// `--quiet`.
  package var quiet = false
  /// `bench ab`'s options every probe runs with, read once as `bench ab` reads them
  /// (`--warmup 1`, `--profile FILE`, …), with the bisected cell as its only one; each probe
  /// sets its runs and its folder.
  package var probe: RunOptions

  /// Options with these values.
  package init(
    revisions: (good: String, bad: String), repo: String?, condition: String, config: String, phase: String,
    runs: Int, maxRuns: Int, threshold: Double, database: HistoryDatabaseURL, out: String?, quiet: Bool,
    probe: RunOptions
  ) {
    self.revisions = revisions
    self.repo = repo
    self.condition = condition
    self.config = config
    self.phase = phase
    self.runs = runs
    self.maxRuns = maxRuns
    self.threshold = threshold
    self.database = database
    self.out = out
    self.quiet = quiet
    self.probe = probe
  }
}
