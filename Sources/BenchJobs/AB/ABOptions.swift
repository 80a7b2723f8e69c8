import Gates
import LaunchContract
import AppBuilds

/// `bench ab`'s command line, parsed without touching the machine: the two revisions as given and
/// `bench`'s options. ``prepare()`` resolves the revisions and prepares the options.
package struct ABOptions: Sendable {
  /// REV_A and REV_B, as given.
  package var revisions: (a: String, b: String)
  /// `--repo`, as given.
  package var repo: String?
  /// `bench`'s options (`outDir` is the folder that gets `A/` and `B/`).
  package var run: RunOptions
  /// The revisions already resolved, by a command that resolved them once for many sessions
  /// (`bench bisect`, whose GOOD must not be refused later because the checkout changed since);
  /// nil: ``prepare()`` resolves ``revisions``.
  package var resolved: (a: Revision, b: Revision)? = nil
  /// The sequential design each cell stops by (the default: `Gate.sequentialDesign`, at most
  /// `run.settings.runs` a side); nil with `--fixed`.
  package var design: SequentialDesign? = nil
  /// The phase the ``design`` decides on.
  package var decidedPhase = PhaseName.firstFrameObserved

  /// Options with these values.
  package init(
    revisions: (a: String, b: String), repo: String?, run: RunOptions,
    resolved: (a: Revision, b: Revision)? = nil, design: SequentialDesign? = nil
  ) {
    self.revisions = revisions
    self.repo = repo
    self.run = run
    self.resolved = resolved
    self.design = design
  }
}
