import AppBuilds
import CommandLineKit
import Foundation
import Subprocess
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// What `bench ab` and `bench bisect` build from: the tree git knows, never a source git does not
/// know. An untracked source makes `HEAD` dirty; the cache of built camera-apps is keyed by the
/// commit's tree, so commits with one tree share a build, and a build kept under a commit's name
/// (as bench did before) is not trusted.
@Suite(
  .blocking, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: GitScratch.gitAvailable, GitScratch.noGit))
struct RevisionBuilderTreeTests {
  /// A build step that notes what it built (main.swift's text, and whether `Extra.swift` was in
  /// the source) and makes a small executable.
  final class FakeBuild: Sendable {
    let built = PThreadMutex<[String]>([])
    var step: RevisionBuilder.BuildStep {
      { (source, scratch, _) throws(RunnerError) in
        let main = FileSystem.readText(atPath: source + "/Sources/camera-app/main.swift") ?? "?"
        let extra = FileSystem.exists(atPath: source + "/Sources/camera-app/Extra.swift") ? " +Extra" : ""
        self.built.withLock { $0.append(main + extra) }
        let binary = scratch + "/camera-app"
        do throws(Errno) {
          try FileSystem.createDirectory(atPath: scratch, mode: 0o755)
          try FileSystem.replaceAtomically(
            Array("#!/bin/sh\n# \(main)\(extra)\n".utf8), atPath: binary, mode: 0o755)
        } catch {
          throw RunnerError(.buildFailed, "fake build: \(error.message)")
        }
        return binary
      }
    }
  }

  @Test(
    "an untracked source under Sources/ makes HEAD dirty, named; an ignored file or one outside the sources does not"
  )
  func untrackedSourceMakesHeadDirty() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    try repo.write(".gitignore", "Sources/camera-app/Generated.swift\n")
    try repo.git("add", ".gitignore")
    try repo.git("commit", "--quiet", "-m", "ignore the generated source")
    let builder = RevisionBuilder(repository: repo.path)
    try repo.write("notes.txt", "untracked, not built\n")
    try repo.write("Sources/camera-app/Generated.swift", "let generated = 1\n")
    #expect(throws: Never.self) { try builder.resolve("HEAD") }
    #expect(SourceCheckout.describe(repo.path)?.dirty == false)

    try repo.write("Sources/camera-app/Extra.swift", "#error(\"git does not know this file\")\n")
    do {
      _ = try builder.resolve("HEAD")
      Issue.record("HEAD with an untracked source resolved")
    } catch {
      #expect(error.message.contains("untracked files (Sources/camera-app/Extra.swift)"), "\(error.message)")
      #expect(
        !error.message.contains("Generated.swift") && !error.message.contains("notes.txt"), "\(error.message)"
      )
    }
    #expect(SourceCheckout.describe(repo.path)?.dirty == true)
    // Another commit is not the checkout: it resolves.
    try repo.write("Sources/camera-app/main.swift", "print(3)\n")
    try repo.git("commit", "--quiet", "-am", "three")
    #expect(throws: Never.self) { try builder.resolve("HEAD~1") }
  }

  @Test("a few untracked files are named, the rest counted")
  func namesAFew() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    for index in 1...5 { try repo.write("Sources/camera-app/Extra\(index).swift", "let x\(index) = 1\n") }
    do {
      _ = try RevisionBuilder(repository: repo.path).resolve("HEAD")
      Issue.record("HEAD with untracked sources resolved")
    } catch {
      #expect(
        error.message.contains(
          "untracked files (Sources/camera-app/Extra1.swift, Sources/camera-app/Extra2.swift, Sources/camera-app/Extra3.swift and 2 more)"
        ), "\(error.message)")
      #expect(error.message.split(separator: "\n").count == 1)
    }
  }

  /// A builder of `repo` with `fake` as its build whose checkout's own camera-app is a small
  /// script saying `checkout`; `whileBuilding` runs each time that camera-app is asked for.
  func checkoutReusingBuilder(
    _ repo: GitScratch, _ fake: FakeBuild, whileBuilding: @escaping @Sendable () -> Void
  ) throws -> RevisionBuilder {
    let checkoutBinary = temporaryFolder("tree-checkout") + "/camera-app"
    try FileSystem.replaceAtomically(
      Array("#!/bin/sh\n# checkout\n".utf8), atPath: checkoutBinary, mode: 0o755)
    return RevisionBuilder(
      repository: repo.path, folder: temporaryFolder("tree-ab"), build: fake.step,
      currentCheckout: { _, _ throws(RunnerError) in
        whileBuilding()
        return checkoutBinary
      })
  }

  @Test("a HEAD with an untracked source is not taken from the checkout's build: it is built from the commit")
  func untrackedSourceIsNotReused() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    let fake = FakeBuild()
    let used = PThreadMutex(0)
    let builder = try checkoutReusingBuilder(repo, fake) { used.withLock { $0 += 1 } }
    let head = try builder.resolve("HEAD")
    // Added after bench ab resolved HEAD, before it builds.
    try repo.write("Sources/camera-app/Extra.swift", "#error(\"git does not know this file\")\n")
    var lines: [String] = []
    let binary = try builder.binary(for: head, interrupted: { false }) { lines.append($0) }
    #expect(used.withLock { $0 } == 0)
    #expect(fake.built.withLock { $0 } == ["print(2)\n"])
    #expect(FileSystem.readText(atPath: binary)?.contains("checkout") == false)
    #expect(lines.contains { $0.contains("Sources/camera-app/Extra.swift") }, "\(lines)")
  }

  @Test(
    "a source that appears while the checkout's own build runs keeps that build out of the tree's cache: HEAD is built from the commit"
  )
  func sourceAddedDuringCheckoutBuildIsNotCached() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    let fake = FakeBuild()
    // The checkout was clean when its build started; an editor saves a new source meanwhile, and
    // SwiftPM may have compiled it.
    let builder = try checkoutReusingBuilder(repo, fake) {
      try? repo.write("Sources/camera-app/Extra.swift", "let extra = 1\n")
    }
    let head = try builder.resolve("HEAD")
    var lines: [String] = []
    let binary = try builder.binary(for: head, interrupted: { false }) { lines.append($0) }
    #expect(FileSystem.readText(atPath: binary)?.contains("checkout") == false)
    #expect(fake.built.withLock { $0 } == ["print(2)\n"])
    #expect(
      FileSystem.readText(atPath: builder.cachedBinary(head.commit))?.contains("checkout") == false)
    #expect(lines.contains { $0.contains("Sources/camera-app/Extra.swift") }, "\(lines)")
  }

  @Test("two commits with the same tree share one build; a commit with another tree is built")
  func sameTreeSharesBuild() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    try repo.git("commit", "--quiet", "--allow-empty", "-m", "the same tree, another commit")
    try repo.write("Sources/camera-app/main.swift", "print(3)\n")
    try repo.git("commit", "--quiet", "-am", "another tree")
    let fake = FakeBuild()
    let builder = RevisionBuilder(
      repository: repo.path, folder: temporaryFolder("tree-ab"), build: fake.step, reuseCheckout: false)
    let first = try builder.resolve("HEAD~2")
    let second = try builder.resolve("HEAD~1")
    #expect(first.commit != second.commit)
    #expect(builder.cachedBinary(first.commit) == builder.cachedBinary(second.commit))
    let binary = try builder.binary(for: first, interrupted: { false }) { _ in }
    var lines: [String] = []
    #expect(try builder.binary(for: second, interrupted: { false }) { lines.append($0) } == binary)
    #expect(fake.built.withLock { $0 } == ["print(2)\n"])
    #expect(lines.contains { $0.contains("cached") }, "\(lines)")

    let third = try builder.resolve("HEAD")
    #expect(builder.cachedBinary(third.commit) != binary)
    let other = try builder.binary(for: third, interrupted: { false }) { _ in }
    #expect(other != binary)
    #expect(fake.built.withLock { $0 } == ["print(2)\n", "print(3)\n"])
    #expect(FileSystem.readText(atPath: other)?.contains("print(3)") == true)
  }

  @Test("a camera-app kept under a commit's name (bench ab before the tree cache) is not used")
  func commitNamedEntryIsNotTrusted() throws {
    let repo = try GitScratch.make()
    defer { repo.remove() }
    let fake = FakeBuild()
    let folder = temporaryFolder("tree-ab")
    let builder = RevisionBuilder(
      repository: repo.path, folder: folder, build: fake.step, reuseCheckout: false)
    let head = try builder.resolve("HEAD")
    let old = folder + "/bin/\(head.commit)/camera-app"
    try FileSystem.createDirectory(atPath: folder + "/bin/\(head.commit)", mode: 0o700)
    try FileSystem.replaceAtomically(Array("#!/bin/sh\n# stale\n".utf8), atPath: old, mode: 0o755)
    let binary = try builder.binary(for: head, interrupted: { false }) { _ in }
    #expect(binary != old)
    #expect(fake.built.withLock { $0 } == ["print(2)\n"])
    #expect(FileSystem.readText(atPath: binary)?.contains("stale") == false)
  }
}
