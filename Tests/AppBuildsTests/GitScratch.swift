import Foundation
import SystemCalls
import TestSupport
import Testing

/// A throw-away git repository whose files a test writes and commits, for what
/// ``RevisionBuilder`` reads from git.
struct GitScratch {
  let path = temporaryFolder("app-builds-repo")

  /// Whether `git` is on `PATH` (suites that need it are skipped without it, saying so).
  static let gitAvailable = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains
  {
    FileSystem.isExecutable(atPath: String($0) + "/git")
  }
  /// The reason shown for a suite skipped without git.
  static let noGit: Comment = "git is not installed: RevisionBuilder reads revisions with git"

  /// A repository with `Package.swift` naming camera-app and `Sources/camera-app/main.swift`
  /// printing `2`, committed once.
  static func make() throws -> GitScratch {
    let repo = GitScratch()
    try repo.git("init", "--quiet")
    try repo.write(
      "Package.swift",
      "let package = Package(name: \"FirstFrame\", products: [.executable(name: \"camera-app\")])\n")
    try repo.write("Sources/camera-app/main.swift", "print(2)\n")
    try repo.git("add", "-A")
    try repo.git("commit", "--quiet", "-m", "camera-app")
    return repo
  }

  /// Runs git in the repository; returns its stdout, trimmed.
  /// - Throws: when git fails or takes over two minutes.
  @discardableResult
  func git(_ arguments: String...) throws -> String {
    var environment = ProcessInfo.processInfo.environment
    for key in ["GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"] { environment[key] = "t" }
    for key in ["GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"] { environment[key] = "t@example.invalid" }
    let git = try TestProcess.run("/usr/bin/env", ["git", "-C", path] + arguments, environment: environment)
    guard git.termination == .exited(0) else {
      throw CocoaError(
        .fileReadUnknown,
        userInfo: [NSLocalizedDescriptionKey: "git \(arguments) failed: \(git.standardErrorText)"])
    }
    return String(decoding: git.standardOutputData, as: UTF8.self).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  /// Writes `text` to `relative` (its folders made as needed).
  func write(_ relative: String, _ text: String) throws {
    let file = path + "/" + relative
    try FileSystem.createDirectory(atPath: (file as NSString).deletingLastPathComponent, mode: 0o755)
    try FileSystem.replaceAtomically(Array(text.utf8), atPath: file, mode: 0o644)
  }

  /// Removes the repository.
  func remove() { try? FileSystem.remove(atPath: path, absentIsFine: true) }
}
