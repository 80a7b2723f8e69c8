import CommandLineKit

extension RevisionBuilder {
  /// The default cost profile's path in a revision, relative to the package root: the file the
  /// built-in default profile of that revision's synthetic camera is kept equal to.
  package static let defaultProfilePath = "Benchmarks/profiles/default.json"

  /// The folders the simulated camera's behaviour is built from, compared between `bench ab`'s
  /// revisions: the synthetic camera (`Sources/SyntheticCamera`: its power-up, costs, frame
  /// stream) and those of its dependencies that model hardware — `Sampling` (its seeded noise),
  /// `LightBoard` (the pattern its sensor images) and `JSONDecoding` (how its profile is read).
  /// Not compared: `CaptureKit` and `CameraApp`, the app under test, whose changes are what
  /// `bench ab` measures; `LaunchContract` and `SystemCalls`, the plumbing every target shares.
  package static let simulatedCameraSources = [
    "Sources/SyntheticCamera", "Sources/Sampling", "Sources/LightBoard", "Sources/JSONDecoding",
  ]

  /// The contents of `path` (relative to the package root) at `revision`'s commit
  /// (`git show COMMIT:PATH`), or nil when the commit has no such file or git cannot read it.
  package func file(_ path: String, at revision: Revision) -> String? {
    let shown = Git.run(["show", "\(revision.commit):\(path)"], in: repository)
    return shown.status == 0 ? shown.output : nil
  }

  /// The files under ``simulatedCameraSources`` that differ between `a` and `b`
  /// (`git diff --name-only A B -- FOLDERS`), in git's order; empty when the simulated camera is
  /// the same code in both.
  /// - Throws: `UsageError` when git cannot compare the commits.
  package func simulatedCameraChanges(from a: Revision, to b: Revision) throws(UsageError) -> [String] {
    let diff = Git.run(
      ["diff", "--name-only", a.commit, b.commit, "--"] + Self.simulatedCameraSources, in: repository)
    guard diff.status == 0 else {
      throw UsageError(
        "cannot compare the simulated camera's sources of \(a.shortCommit) and \(b.shortCommit): git diff failed (\(diff.lines.last ?? "no output"))"
      )
    }
    return diff.lines
  }
}
