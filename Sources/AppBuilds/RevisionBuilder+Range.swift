import CommandLineKit

/// One commit of a `bench bisect` range, as git describes it.
package struct RangeCommit: Sendable, Equatable {
  /// The full commit hash.
  package var commit: String
  /// The first line of its message.
  package var subject: String
  /// Its committer date, strict ISO 8601 (`2026-12-03T16:31:34+00:00`).
  package var time: String

  /// Creates a commit's description.
  package init(commit: String, subject: String, time: String) {
    self.commit = commit
    self.subject = subject
    self.time = time
  }
}

extension RevisionBuilder {
  /// The commits after `good` up to and including `bad` along `bad`'s first parents, oldest
  /// first (`git rev-list --first-parent --reverse GOOD..BAD`): the mainline as it was merged,
  /// each commit one that was `HEAD` of the branch at some time, so the range is a line that a
  /// binary search can halve (a side branch's commits are represented by their merge).
  /// - Throws: `UsageError` when `good` is not an ancestor of `bad` along first parents, or git
  ///   cannot list the range.
  package func firstParentRange(from good: Revision, to bad: Revision) throws(UsageError) -> [RangeCommit] {
    let listed = Git.run(
      [
        "log", "--first-parent", "--reverse", "--format=%H%x09%P%x09%cI%x09%s",
        "\(good.commit)..\(bad.commit)",
      ],
      in: repository)
    guard listed.status == 0 else {
      throw UsageError(
        "cannot list the commits from \(good.shortCommit) to \(bad.shortCommit): git log failed (\(listed.lines.last ?? "no output"))"
      )
    }
    var firstParent: String?
    let commits = listed.lines.compactMap { line -> RangeCommit? in
      let fields = line.split(separator: "\t", maxSplits: 3, omittingEmptySubsequences: false)
      guard fields.count >= 3 else { return nil }
      if firstParent == nil { firstParent = fields[1].split(separator: " ").first.map(String.init) ?? "" }
      return RangeCommit(
        commit: String(fields[0]), subject: fields.count > 3 ? String(fields[3]) : "", time: String(fields[2])
      )
    }
    let ancestor = Git.run(["merge-base", "--is-ancestor", good.commit, bad.commit], in: repository)
    guard ancestor.status == 0 else {
      throw UsageError(
        "GOOD \(good.name) (\(good.shortCommit)) is not an ancestor of BAD \(bad.name) (\(bad.shortCommit)): nothing to bisect"
      )
    }
    guard commits.last?.commit == bad.commit, firstParent == good.commit else {
      throw UsageError(
        "GOOD \(good.name) (\(good.shortCommit)) is not on BAD \(bad.name)'s first-parent line: bisect follows first parents (give the merge base, or a commit of the mainline)"
      )
    }
    return commits
  }

  /// The first line of `revision`'s message, or nil when git cannot say.
  package func subject(of revision: Revision) -> String? {
    Git.run(["show", "-s", "--format=%s", revision.commit], in: repository).lines.first
  }

  /// The committer date of `revision` (strict ISO 8601), or nil when git cannot say.
  package func commitTime(_ revision: Revision) -> String? {
    Git.run(["show", "-s", "--format=%cI", revision.commit], in: repository).lines.first
  }
}
