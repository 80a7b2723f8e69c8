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

  /// Options with these values.
  package init(
    revisions: (a: String, b: String), repo: String?, run: RunOptions,
    resolved: (a: Revision, b: Revision)? = nil
  ) {
    self.revisions = revisions
    self.repo = repo
    self.run = run
    self.resolved = resolved
  }
}
