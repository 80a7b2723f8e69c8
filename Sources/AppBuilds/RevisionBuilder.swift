#if canImport(Glibc)
  import Glibc
#endif
import CommandLineKit
import Foundation
import Subprocess
import SystemCalls

/// A git revision as given on the command line, resolved to its commit.
package struct Revision: Sendable, Equatable {
  /// As given (`HEAD~1`, `origin/main`, `v0.1.0`).
  package var name: String
  /// The full commit hash it resolved to.
  package var commit: String

  /// The first 12 characters of the commit hash.
  package var shortCommit: String { String(commit.prefix(12)) }

  /// Creates a revision.
  package init(name: String, commit: String) {
    self.name = name
    self.commit = commit
  }
}

/// Builds camera-app at git revisions for `bench ab`, the same way `bench` builds it today
/// (``CameraAppLocator``: release, `--static-swift-stdlib`, its own scratch folder), and keeps
/// one binary per tree so that a second `bench ab` of the same revisions builds nothing.
///
/// Layout, in the package's `.build/ab/` (mode 0711, ignored by git like all of `.build`: others
/// may pass through it, not list it, so that the app user a root bench runs camera-app as —
/// `--app-user`, issue 41 — can run the cached binaries):
/// - `tree/<tree>/camera-app`: the cache, one finished binary per git tree
///   (`git rev-parse COMMIT^{tree}`: what the commit's files are, not what the commit is named,
///   so two commits with the same files share one build), written under a temporary name and
///   renamed, so a build that was stopped leaves nothing that looks finished. `bin/<commit>/`,
///   where bench kept binaries by commit before, is not read: what was built there may have
///   carried sources git did not know;
/// - `src/`: a detached git worktree that is checked out at the revision being built;
/// - `scratch/`: that worktree's SwiftPM scratch folder, kept between builds, so that building
///   a second revision recompiles only what differs between the two;
/// - `lock`: held (`flock`) while building, so two `bench ab` at once take turns.
///
/// A revision whose tree is the current checkout's `HEAD`'s, in a working tree with neither an
/// uncommitted change nor an untracked file among the build inputs (``WorkingTreeChanges``) before
/// that build and after it, is taken from the checkout's own camera-app build
/// (``CameraAppLocator``): that is the same source built the same way, and usually already built.
package final class RevisionBuilder: Sendable {
  /// Builds camera-app from the package at `source` with SwiftPM scratch folder `scratch` and
  /// returns the binary's path; polls `interrupted` and stops the build when it turns true.
  package typealias BuildStep =
    @Sendable (_ source: String, _ scratch: String, _ interrupted: @Sendable () -> Bool) throws(RunnerError)
    -> String

  /// Returns the current checkout's own camera-app (built when needed; the build stops when
  /// `interrupted` turns true); `log` gets progress lines.
  package typealias CheckoutStep =
    @Sendable (_ interrupted: @Sendable () -> Bool, _ log: (String) -> Void) throws(RunnerError) -> String

  /// The git repository (the package root).
  package let repository: String
  /// `.build/ab` or the folder given.
  package let folder: String
  let build: BuildStep
  let currentCheckout: CheckoutStep?

  /// Creates a builder for `repository`. `folder` defaults to `<repository>/.build/ab`; `build`
  /// to ``swiftBuild(_:_:_:swift:)``; `currentCheckout` (how to get the checkout's own
  /// camera-app for a clean `HEAD`) to ``CameraAppLocator/locate(interrupted:log:)``; with
  /// `reuseCheckout` false every revision is built in the worktree.
  package init(
    repository: String, folder: String? = nil, build: BuildStep? = nil, reuseCheckout: Bool = true,
    currentCheckout: CheckoutStep? = nil
  ) {
    self.repository = repository
    self.folder = folder ?? repository + "/.build/ab"
    if let build {
      self.build = build
    } else {
      self.build = { (source, scratch, interrupted) throws(RunnerError) in
        try RevisionBuilder.swiftBuild(source, scratch, interrupted)
      }
    }
    if !reuseCheckout {
      self.currentCheckout = nil
    } else if let currentCheckout {
      self.currentCheckout = currentCheckout
    } else {
      self.currentCheckout = { (interrupted, log) throws(RunnerError) in
        try CameraAppLocator.locate(interrupted: interrupted, log: log)
      }
    }
  }

  // MARK: - Resolving

  /// Resolves `name` to a commit that has camera-app, and refuses a `HEAD` whose working tree
  /// has uncommitted changes to what camera-app is built from, or untracked files among them
  /// (they would not be measured).
  /// - Throws: `UsageError` (exit 2) naming what is wrong, in one line.
  package func resolve(_ name: String) throws(UsageError) -> Revision {
    guard !name.isEmpty, !name.hasPrefix("-") else {
      throw UsageError("'\(name)' is not a git revision")
    }
    guard Git.run(["rev-parse", "--git-dir"], in: repository).status == 0 else {
      throw UsageError("\(repository) is not a git repository (bench ab builds revisions with git)")
    }
    let parsed = Git.run(["rev-parse", "--verify", "--quiet", "\(name)^{commit}"], in: repository)
    guard parsed.status == 0, let commit = parsed.lines.first, commit.count >= 40 else {
      throw UsageError("unknown revision '\(name)' in \(repository)")
    }
    let tree = Git.run(["ls-tree", "--name-only", commit, "Sources/camera-app/"], in: repository)
    let manifest = Git.run(["show", "\(commit):Package.swift"], in: repository)
    guard tree.status == 0, !tree.lines.isEmpty, manifest.status == 0,
      manifest.output.contains("\"camera-app\"")
    else {
      throw UsageError("revision '\(name)' (\(commit.prefix(12))) has no camera-app to build")
    }
    let head = Git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: repository)
    if head.lines.first == commit, let dirty = uncommittedChanges() {
      throw UsageError(
        "'\(name)' is the checkout's HEAD, but the working tree has \(dirty): they would not be measured; commit them first (or remove them, or list them in .gitignore)"
      )
    }
    return Revision(name: name, commit: commit)
  }

  /// What camera-app is built from: a change anywhere else (a fuzzer's build state, notes) is
  /// not measured either way.
  static let buildInputs = ["Package.swift", "Package.resolved", "Sources"]

  /// What the working tree holds among the files camera-app is built from (``buildInputs``)
  /// that `HEAD` does not — uncommitted changes, untracked files — in one line naming a few
  /// (``WorkingTreeChanges/summary``), or nil when it holds nothing else.
  func uncommittedChanges() -> String? {
    guard let changes = WorkingTreeChanges.read(in: repository) else { return "git status failed" }
    return changes.isEmpty ? nil : changes.summary
  }

  // MARK: - Building

  /// The tree `commit`'s files make (`git rev-parse --verify COMMIT^{tree}`): the cache's key.
  /// nil when git cannot read the commit.
  package func tree(of commit: String) -> String? {
    let parsed = Git.run(["rev-parse", "--verify", "--quiet", "\(commit)^{tree}"], in: repository)
    guard parsed.status == 0, let tree = parsed.lines.first, tree.count >= 40, tree.allSatisfy(\.isHexDigit)
    else { return nil }
    return tree
  }

  /// The cached binary's path for the tree `tree` (it may not exist yet).
  package func cachedBinary(tree: String) -> String { folder + "/tree/\(tree)/camera-app" }

  /// The cached binary's path for `commit`: its tree's (``tree(of:)``; it may not exist yet). A
  /// commit git cannot read gets a path in `unknown/`, where nothing is ever kept.
  package func cachedBinary(_ commit: String) -> String {
    tree(of: commit).map { cachedBinary(tree: $0) } ?? folder + "/unknown/\(commit)/camera-app"
  }

  /// camera-app built at `revision`: from the cache (its tree's), else from the current
  /// checkout (a clean `HEAD` with the same tree), else built in the worktree. `log` gets
  /// progress lines.
  /// - Throws: `RunnerError` (`.interrupted` when `interrupted` turned true, `.buildFailed`).
  package func binary(
    for revision: Revision, interrupted: @escaping @Sendable () -> Bool, log: (String) -> Void
  ) throws(RunnerError) -> String {
    guard let tree = self.tree(of: revision.commit) else {
      throw RunnerError(
        .buildFailed, "git cannot read the tree of \(revision.name) (\(revision.shortCommit))")
    }
    let cached = cachedBinary(tree: tree)
    if FileSystem.isExecutable(atPath: cached) {
      log("camera-app at \(revision.name) (\(revision.shortCommit)): cached, \(cached)")
      // A cache made before issue 41 was mode 0700: opened to the app user as prepareFolder does.
      chmod(folder, 0o711)
      chmod(folder + "/tree", 0o711)
      return cached
    }
    try prepareFolder()
    let lock = try Lock(path: folder + "/lock", interrupted: interrupted)
    defer { lock.release() }
    if FileSystem.isExecutable(atPath: cached) { return cached }  // built by another bench ab meanwhile
    let built: String
    if let checkout = try checkoutBuild(of: revision, tree: tree, interrupted: interrupted, log: log) {
      built = checkout
    } else {
      log("building camera-app at \(revision.name) (\(revision.shortCommit)) in \(folder)/src (release)…")
      try checkOut(revision)
      if interrupted() { throw RunnerError(.interrupted, "interrupted") }
      built = try build(folder + "/src", folder + "/scratch", interrupted)
    }
    try store(built, as: cached)
    return cached
  }

  /// The checkout's own camera-app (``currentCheckout``) for `revision`, when the checkout's
  /// `HEAD` has `tree` and its working tree holds nothing `HEAD` does not (``WorkingTreeChanges``)
  /// both before that build and after it (a source saved while it ran may have been compiled);
  /// nil otherwise, saying which files kept it from being taken.
  func checkoutBuild(
    of revision: Revision, tree: String, interrupted: @escaping @Sendable () -> Bool, log: (String) -> Void
  ) throws(RunnerError) -> String? {
    guard let currentCheckout, self.tree(of: "HEAD") == tree else { return nil }
    var dirty = uncommittedChanges()
    if dirty == nil {
      log("camera-app at \(revision.name) (\(revision.shortCommit)): the checkout's own build")
      let binary = try currentCheckout(interrupted, log)
      dirty = uncommittedChanges()
      if dirty == nil { return binary }
    }
    log(
      "the checkout's HEAD is \(revision.name)'s tree, but its working tree has \(dirty ?? ""): not its build"
    )
    return nil
  }

  func prepareFolder() throws(RunnerError) {
    do throws(Errno) {
      try FileSystem.createDirectory(atPath: folder + "/tree", mode: 0o711)
    } catch {
      throw RunnerError(.buildFailed, "cannot create \(folder)/tree: \(error.message)", errno: error)
    }
    // Passable, for the app user (see the layout above); a tree folder made before is made so too.
    chmod(folder, 0o711)
    chmod(folder + "/tree", 0o711)
  }

  /// Makes `src` a detached worktree at `revision` (adding it when it is missing or broken).
  func checkOut(_ revision: Revision) throws(RunnerError) {
    let src = folder + "/src"
    var ok = false
    if FileSystem.exists(atPath: src + "/.git") {
      ok = Git.run(["checkout", "--quiet", "--force", "--detach", revision.commit], in: src).status == 0
    }
    if !ok {
      // Whatever cannot be removed, `git worktree add --force` below replaces or reports.
      try? FileSystem.remove(atPath: src, absentIsFine: true)
      _ = Git.run(["worktree", "prune"], in: repository)
      let added = Git.run(
        ["worktree", "add", "--quiet", "--force", "--detach", src, revision.commit], in: repository)
      guard added.status == 0 else {
        throw RunnerError(
          .buildFailed, "git worktree add \(src) \(revision.shortCommit) failed: \(added.lines.last ?? "")")
      }
    }
    // Files the previous revision's build or a stopped checkout left behind.
    _ = Git.run(["clean", "--quiet", "-d", "--force", "-x"], in: src)
  }

  /// Copies `built` to `destination` (mode 0755) atomically
  /// (``FileSystem/replaceAtomically(_:atPath:mode:)-([UInt8],_,_)``).
  func store(_ built: String, as destination: String) throws(RunnerError) {
    let dir = (destination as NSString).deletingLastPathComponent
    do throws(Errno) {
      try FileSystem.createDirectory(atPath: dir, mode: 0o777)
    } catch {
      throw RunnerError(.buildFailed, "cannot keep camera-app in \(dir): \(error.message)", errno: error)
    }
    do throws(Errno) {
      let bytes = try FileSystem.contents(atPath: built, maxBytes: 1 << 31)
      try FileSystem.replaceAtomically(bytes, atPath: destination, mode: 0o755)
    } catch {
      throw RunnerError(
        .buildFailed, "cannot keep camera-app as \(destination): \(error.message)", errno: error)
    }
  }

  /// `swift build -c release --product camera-app --static-swift-stdlib` of the package at
  /// `source` into `scratch` (``CameraAppLocator``'s command), its output in
  /// `<scratch>/build.log`. Stopped, with every compiler job it started, when `interrupted` turns true;
  /// it also dies with bench (``BuildGuard``).
  /// `swift` is the toolchain's `swift` (default: found on `PATH`, else `/opt/swift/usr/bin`).
  package static func swiftBuild(
    _ source: String, _ scratch: String, _ interrupted: @Sendable () -> Bool,
    swift: String? = nil
  ) throws(RunnerError) -> String {
    try CameraAppLocator.build(
      package: source, scratch: scratch, logPath: scratch + "/build.log", swift: swift,
      interrupted: interrupted)
  }

  /// An exclusive `flock` on a file, waited for while polling `interrupted`.
  struct Lock {
    let fd: Int32

    init(path: String, interrupted: () -> Bool) throws(RunnerError) {
      fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
      guard fd >= 0 else {
        let error = Errno.current
        throw RunnerError(.buildFailed, "cannot open \(path): \(error.message)", errno: error)
      }
      while (try? FileSystem.tryLockExclusively(fd)) != true {
        if interrupted() {
          FileDescriptorIO.close(fd)
          throw RunnerError(.interrupted, "interrupted while waiting for another bench ab's build")
        }
        MonotonicClock.sleep(nanoseconds: 100_000_000)
      }
    }

    func release() { FileDescriptorIO.close(fd) }
  }
}

/// `git` as a child process: its exit status, and what it wrote (stdout and stderr together).
enum Git {
  struct Result {
    /// nil when git could not be started.
    var status: Int32?
    var output: String
    var lines: [String] { output.split(separator: "\n").map(String.init) }
  }

  static func run(_ arguments: [String], in directory: String) -> Result {
    guard let git = executable() else { return Result(status: nil, output: "git not found") }
    guard let dir = try? PrivateDirectory.makeTemporary(prefix: "firstframe-git-") else {
      return Result(status: nil, output: "no temporary folder")
    }
    // A scratch folder left behind in the temporary folder harms nothing: its removal is not checked.
    defer { try? FileSystem.remove(atPath: dir, absentIsFine: true) }
    let log = dir + "/out"
    var environment = ProcessInfo.processInfo.environment
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["LC_ALL"] = "C"
    guard
      let child = try? ChildProcess.spawn(
        argv: [git, "-C", directory] + arguments, environment: environment, logPath: log)
    else {
      return Result(status: nil, output: "cannot start git")
    }
    var end: ChildProcess.Termination?
    while end == nil { end = child.wait(timeout: 60) }
    let output = FileSystem.readText(atPath: log) ?? ""
    if case .exited(let code) = end { return Result(status: code, output: output) }
    return Result(status: -1, output: output)
  }

  static func executable() -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + [
      "/usr/bin"
    ] {
      let candidate = "\(dir)/git"
      if FileSystem.isExecutable(atPath: candidate) { return candidate }
    }
    return nil
  }
}
