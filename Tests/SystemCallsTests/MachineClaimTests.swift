import Foundation
import Glibc
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// Ownership by claim: a leftover is removed when its owner's claim is free, whatever its pid
/// says in this pid namespace. Each test keeps its claims in a folder of its own.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10))))
struct MachineClaimTests {
  /// `unshare`'s arguments that start a command in a pid namespace of its own (with a user
  /// namespace when this process is not root), or nil when this machine cannot.
  static let unshare: [String]? = {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
    for prefix in [["--pid", "--fork", "--mount-proc", "--kill-child"]]
      + [["--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "--kill-child"]]
    {
      let probe = try? TestProcess.run("/usr/bin/unshare", prefix + ["/bin/true"], timeout: .seconds(60))
      if probe?.terminationStatus == 0 { return prefix }
    }
    return nil
  }()
  static let noUnshare = "unshare cannot start a process in a pid namespace of its own here"

  /// A pid that no process has now: a child's, once it has ended.
  static func deadPID() throws -> Int32 {
    let child = try TestProcess.run("/bin/true", [], timeout: .seconds(60))
    return child.processIdentifier
  }

  /// A token with `pid` and random bits, as ``MachineClaim`` makes them.
  static func token(pid: Int32) -> String {
    let bits = String(UInt64.random(in: 0...UInt64.max), radix: 16)
    return "\(pid)x" + String(repeating: "0", count: 16 - bits.count) + bits
  }

  @Test("a claim is held while its owner holds it, and missing once it lets go")
  func heldThenMissing() throws {
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var claim: MachineClaim? = try MachineClaim(folder: folder)
    let token = try #require(claim?.token)
    #expect(token.hasPrefix("\(getpid())x") && token.count == "\(getpid())x".count + 16)
    #expect(MachineClaim.state(ofToken: Substring(token), folders: [folder]) == .held)
    #expect(!MachineClaim.isFree(token: Substring(token), folders: [folder]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [token])
    claim = nil
    #expect(MachineClaim.state(ofToken: Substring(token), folders: [folder]) == .missing)
  }

  @Test(
    "a claim held by a live owner in another pid namespace keeps its leftovers, and once the owner is gone they go"
  )
  func otherNamespace() throws {
    let prefix = try #require(Self.unshare, Comment(rawValue: Self.noUnshare))
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The owner's pid in its own namespace says nothing here: this one is no process's.
    let token = Self.token(pid: try Self.deadPID())
    let holder = TestProcess(
      executable: "/usr/bin/unshare",
      arguments: prefix + ["/usr/bin/flock", folder + "/" + token, "/bin/sleep", "600"])
    try holder.run()
    defer {
      holder.signal(SIGKILL)
      _ = holder.waitUntilExit(timeout: .seconds(60))
    }
    let held = blockUntil(timeout: .seconds(120)) {
      MachineClaim.state(ofToken: Substring(token), folders: [folder]) == .held
    }
    try #require(held, "the owner in its own pid namespace never took its claim: \(holder.standardErrorText)")
    let leftovers = ["firstframe-\(token)", "firstframe-\(token)-runtime", "firstframe-\(token)-run-1"]
    var removed: [String] = []
    #expect(
      MachineClaim.removeLeftovers(leftovers, prefix: "firstframe-", folders: [folder]) {
        removed.append($0)
        return true
      }.isEmpty)
    #expect(removed.isEmpty, "a live owner's leftovers were removed: \(removed)")
    holder.signal(SIGKILL)
    _ = holder.waitUntilExit(timeout: .seconds(60))
    let freed = blockUntil(timeout: .seconds(120)) {
      MachineClaim.state(ofToken: Substring(token), folders: [folder]) == .free
    }
    try #require(freed, "the claim is still held after its owner's namespace ended")
    #expect(
      MachineClaim.removeLeftovers(leftovers, prefix: "firstframe-", folders: [folder]) { _ in true }
        == leftovers)
  }

  @Test("a dead owner's leftovers go though its pid was given to a live process since")
  func reusedPID() throws {
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // The dead owner's claim file, unlocked, with this live process's pid in its token.
    let token = Self.token(pid: getpid())
    FileDescriptorIO.close(try FileSystem.createFile(atPath: folder + "/" + token))
    #expect(MachineClaim.state(ofToken: Substring(token), folders: [folder]) == .free)
    let live = try MachineClaim(folder: folder)
    let names = ["firstframe-\(token)", "firstframe-\(live.token)", "firstframe-\(token)-runtime"]
    let removed = MachineClaim.removeLeftovers(names, prefix: "firstframe-", folders: [folder]) { _ in true }
    #expect(removed == ["firstframe-\(token)", "firstframe-\(token)-runtime"])
    withExtendedLifetime(live) {}
  }

  @Test("a name without a claim is judged by its pid; one that is not ours is never removed")
  func withoutClaim() throws {
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let dead = try Self.deadPID()
    #expect(MachineClaim.isFree(token: "\(dead)", folders: [folder]))
    #expect(MachineClaim.isFree(token: Substring(Self.token(pid: dead)), folders: [folder]))
    #expect(!MachineClaim.isFree(token: "\(getpid())", folders: [folder]))
    #expect(!MachineClaim.isFree(token: Substring(Self.token(pid: getpid())), folders: [folder]))
    for foreign in ["surface", "xvfb", "12x34", "", "0", "-5", "\(dead)xzzzzzzzzzzzzzzzz"] {
      #expect(!MachineClaim.isFree(token: Substring(foreign), folders: [folder]), "\(foreign)")
    }
    #expect(MachineClaim.token(inName: "firstframe-12x00ff-run-3", after: "firstframe-") == "12x00ff")
    #expect(MachineClaim.token(inName: "other-12", after: "firstframe-") == nil)
  }

  @Test("free claim files older than the age are removed; held and recent ones stay")
  func freeClaims() throws {
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let live = try MachineClaim(folder: folder)
    let old = Self.token(pid: try Self.deadPID())
    let recent = Self.token(pid: try Self.deadPID())
    for token in [old, recent] {
      FileDescriptorIO.close(try FileSystem.createFile(atPath: folder + "/" + token))
    }
    var times = [timespec(tv_sec: 1000, tv_nsec: 0), timespec(tv_sec: 1000, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, folder + "/" + old, &times, 0) == 0)
    #expect(MachineClaim.removeFreeClaims(in: folder) == [old])
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == [live.token, recent])
    // With no age at all, the recent free one goes too; the held one never does.
    #expect(MachineClaim.removeFreeClaims(in: folder, olderThan: -1) == [recent])
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [live.token])
  }

  @Test("the claim's descriptor is close-on-exec: nothing the owner spawns holds the claim on")
  func closeOnExec() throws {
    let folder = temporaryFolder("claims")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let claim = try MachineClaim(folder: folder)
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    let fd = try #require(
      fds.first { (try? FileSystem.symbolicLinkDestination(atPath: "/proc/self/fd/" + $0)) == claim.path })
    let info = try #require(FileSystem.readText(atPath: "/proc/self/fdinfo/" + fd))
    let flags = try #require(
      info.split(separator: "\n").first { $0.hasPrefix("flags:") }.flatMap {
        Int($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
      })
    #expect(flags & Int(O_CLOEXEC) != 0, "flags \(String(flags, radix: 8))")
  }
}
