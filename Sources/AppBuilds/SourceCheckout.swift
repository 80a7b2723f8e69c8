/// The git checkout a benchmark measured: its commit, its branch, and whether what camera-app is
/// built from had uncommitted changes. results.json records it as `tool.commit`, `tool.branch`
/// and `tool.dirty` (docs/results.md), and `bench history record` takes the commit from there.
package struct SourceCheckout: Sendable, Hashable {
  /// The full commit hash (40 hex digits).
  package var commit: String
  /// The branch `HEAD` is on (`main`), or nil when detached or not known.
  package var branch: String?
  /// Whether `Package.swift`, `Package.resolved` or `Sources/` had uncommitted changes to
  /// tracked files (``RevisionBuilder/buildInputs``).
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
  /// `git status --porcelain --untracked-files=no -- Package.swift Package.resolved Sources`.
  package static func describe(_ root: String) -> SourceCheckout? {
    let head = Git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: root)
    guard head.status == 0, let commit = head.lines.first, commit.count >= 40,
      commit.allSatisfy(\.isHexDigit)
    else { return nil }
    let symbolic = Git.run(["symbolic-ref", "--quiet", "--short", "HEAD"], in: root)
    let branch = symbolic.status == 0 ? symbolic.lines.first : nil
    let status = Git.run(
      ["status", "--porcelain", "--untracked-files=no", "--"] + RevisionBuilder.buildInputs, in: root)
    return SourceCheckout(commit: commit, branch: branch, dirty: status.status != 0 || !status.lines.isEmpty)
  }
}
