/// The git checkout a benchmark measured: its commit, its branch, and whether what camera-app is
/// built from had uncommitted changes or untracked files. results.json records it as `tool.commit`, `tool.branch`
/// and `tool.dirty` (docs/results.md), and `bench history record` takes the commit from there.
package struct SourceCheckout: Sendable, Hashable {
  /// The full commit hash (40 hex digits).
  package var commit: String
  /// The branch `HEAD` is on (`main`), or nil when detached or not known.
  package var branch: String?
  /// Whether `Package.swift`, `Package.resolved` or `Sources/` had uncommitted changes to
  /// tracked files or untracked files that `.gitignore` does not exclude
  /// (``RevisionBuilder/buildInputs``, ``WorkingTreeChanges``).
  package var dirty: Bool

  /// Creates the record.
  package init(commit: String, branch: String? = nil, dirty: Bool = false) {
    self.commit = commit
    self.branch = branch
    self.dirty = dirty
  }

  /// The checkout at `root`, or nil when `root` is not a git checkout or git is missing — never
  /// a failure: a benchmark from an unpacked tarball simply records no commit. Runs
  /// `git rev-parse --verify HEAD^{commit}`, `git symbolic-ref --quiet --short HEAD` and
  /// `git status --porcelain --untracked-files=all -- Package.swift Package.resolved Sources`
  /// (``WorkingTreeChanges/read(in:)``; a status git cannot give counts as dirty).
  package static func describe(_ root: String) -> SourceCheckout? {
    let head = Git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: root)
    guard head.status == 0, let commit = head.lines.first, commit.count >= 40,
      commit.allSatisfy(\.isHexDigit)
    else { return nil }
    let symbolic = Git.run(["symbolic-ref", "--quiet", "--short", "HEAD"], in: root)
    let branch = symbolic.status == 0 ? symbolic.lines.first : nil
    let changes = WorkingTreeChanges.read(in: root)
    return SourceCheckout(commit: commit, branch: branch, dirty: changes?.isEmpty != true)
  }
}
