/// What a checkout's working tree holds that its `HEAD` commit does not, among the files
/// camera-app is built from (``RevisionBuilder/buildInputs``): tracked files with uncommitted
/// changes, and untracked files that `.gitignore` does not exclude. Either makes `HEAD` dirty:
/// a build of the checkout would compile sources that the commit does not have.
package struct WorkingTreeChanges: Sendable, Equatable {
  /// Tracked files changed (modified, added, deleted, renamed: the new name), in git's order.
  package var changed: [String]
  /// Untracked, not ignored files, each named (not their folder), in git's order.
  package var untracked: [String]

  /// How many names a ``summary`` spells out per kind before it counts the rest.
  static let namesShown = 3

  /// Creates the record.
  package init(changed: [String] = [], untracked: [String] = []) {
    self.changed = changed
    self.untracked = untracked
  }

  /// Whether the working tree matches `HEAD` in every build input.
  package var isEmpty: Bool { changed.isEmpty && untracked.isEmpty }

  /// One line naming a few of the files: `uncommitted changes (Sources/a.swift) and untracked
  /// files (Sources/b.swift, Sources/c.swift, Sources/d.swift and 2 more)`; empty when clean.
  package var summary: String {
    func names(_ paths: [String]) -> String {
      let shown = paths.prefix(Self.namesShown).joined(separator: ", ")
      return paths.count > Self.namesShown ? "\(shown) and \(paths.count - Self.namesShown) more" : shown
    }
    var parts: [String] = []
    if !changed.isEmpty { parts.append("uncommitted changes (\(names(changed)))") }
    if !untracked.isEmpty { parts.append("untracked files (\(names(untracked)))") }
    return parts.joined(separator: " and ")
  }

  /// The changes in the checkout at `repository`, or nil when git cannot say. Runs
  /// `git status --porcelain --untracked-files=all -- Package.swift Package.resolved Sources`
  /// (untracked files listed one by one, `.gitignore` honoured).
  package static func read(in repository: String) -> WorkingTreeChanges? {
    let status = Git.run(
      ["status", "--porcelain", "--untracked-files=all", "--"] + RevisionBuilder.buildInputs, in: repository)
    guard status.status == 0 else { return nil }
    return parse(porcelain: status.lines)
  }

  /// Reads `git status --porcelain` (version 1) lines: `XY PATH`, `XY OLD -> NEW` for a rename,
  /// `?? PATH` for an untracked file.
  static func parse(porcelain lines: [String]) -> WorkingTreeChanges {
    var changes = WorkingTreeChanges()
    for line in lines where line.count > 3 {
      let path = String(line.dropFirst(3))
      if line.hasPrefix("?? ") {
        changes.untracked.append(path)
      } else if line.hasPrefix("!! ") {
        continue  // ignored (only listed with --ignored)
      } else {
        let renamed = path.range(of: " -> ").map { String(path[$0.upperBound...]) }
        changes.changed.append(renamed ?? path)
      }
    }
    return changes
  }
}
