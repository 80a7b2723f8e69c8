import AppBuilds
import BenchCommands
import Foundation
import TestSupport
import TestThreads
import Testing

/// results.json's `tool.commit`, `tool.branch` and `tool.dirty`: what ``SourceCheckout`` reads
/// from a real git checkout, and what each side of `bench ab` records.
@Suite(
  .blocking, .timeLimit(.minutes(TestTime.minutes(10))),
  .enabled(if: ScratchRepository.gitAvailable, ScratchRepository.noGit))
struct SourceCheckoutTests {
  @Test("a checkout's commit, branch and clean state; a change under Sources/ makes it dirty")
  func describesCheckout() throws {
    let repo = try ScratchRepository.make()
    defer { try? FileManager.default.removeItem(atPath: repo.path) }
    try repo.git("checkout", "--quiet", "-b", "night")
    let checkout = try #require(SourceCheckout.describe(repo.path))
    #expect(checkout.commit == (try repo.git("rev-parse", "HEAD")))
    #expect(checkout.branch == "night")
    #expect(!checkout.dirty)
    // A tracked file camera-app is not built from changes nothing; one under Sources/ does.
    try repo.write("Fuzz/.build/workspace-state.json", "{\"changed\": true}\n")
    #expect(SourceCheckout.describe(repo.path)?.dirty == false)
    try repo.write("Sources/camera-app/main.swift", "print(4)\n")
    #expect(SourceCheckout.describe(repo.path)?.dirty == true)
  }

  @Test("a detached HEAD has no branch; a folder outside git has no checkout (and that is no failure)")
  func detachedAndNone() throws {
    let repo = try ScratchRepository.make()
    defer { try? FileManager.default.removeItem(atPath: repo.path) }
    let first = try repo.git("rev-parse", "HEAD~1")
    try repo.git("checkout", "--quiet", "--detach", first)
    #expect(SourceCheckout.describe(repo.path) == SourceCheckout(commit: first, branch: nil, dirty: false))
    let plain = temporaryFolder("not-git")
    defer { try? FileManager.default.removeItem(atPath: plain) }
    #expect(SourceCheckout.describe(plain) == nil)
  }

  @Test("bench ab's sides record their revisions' commits: A's in A/, B's in B/")
  func abSidesRecordTheirRevisions() throws {
    let repo = try ScratchRepository.make()
    defer { try? FileManager.default.removeItem(atPath: repo.path) }
    let out = temporaryFolder("ab-checkouts")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let run = try #require(
      try ABCommand.parse(["--repo", repo.path, "HEAD~1", "HEAD", "--out", out])?.prepare())
    let checkouts = run.checkouts()
    #expect(
      checkouts.map { $0?.commit } == [
        try repo.git("rev-parse", "HEAD~1"), try repo.git("rev-parse", "HEAD"),
      ])
    #expect(checkouts.allSatisfy { $0?.branch == nil && $0?.dirty == false })
  }
}
