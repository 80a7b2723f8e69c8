import Foundation
import Glibc
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// The machine lock: one holder at a time, whatever pid namespace it runs in; the next takes it
/// once the holder lets go or ends. Each test locks a file in a folder of its own.
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10))))
struct MachineLockTests {
  @Test(
    "one holder at a time: a second taker learns who holds it and what for, and takes it once it is let go")
  func oneAtATime() throws {
    let folder = temporaryFolder("machine-lock")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/machine.lock"
    var first: MachineLock? = try MachineLock.take(atPath: path, for: "the cpufreq cap").get()
    guard case .failure(let holder) = try MachineLock.take(atPath: path, for: "full-load burners") else {
      Issue.record("a second taker took a held lock")
      return
    }
    #expect(holder == .init(pid: getpid(), use: "the cpufreq cap"))
    #expect(holder.description == "another bench (pid \(getpid())) holds the machine for the cpufreq cap")
    withExtendedLifetime(first) {}
    first = nil
    // A child another test spawns at this moment shares the lock's open file until its exec:
    // the next taker may have to try again.
    var second: MachineLock?
    let taken = blockUntil(timeout: .seconds(120)) {
      second = try? MachineLock.take(atPath: path, for: "the hot soak").get()
      return second != nil
    }
    #expect(taken, "the lock is still held after its holder let go")
    #expect(MachineLock.holder(atPath: path) == .init(pid: getpid(), use: "the hot soak"))
    withExtendedLifetime(second) {}
  }

  @Test("a holder in another pid namespace holds it; once it ends, the lock is free")
  func otherNamespace() throws {
    let prefix = try #require(MachineClaimTests.unshare, Comment(rawValue: MachineClaimTests.noUnshare))
    let folder = temporaryFolder("machine-lock")
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/machine.lock"
    let holder = TestProcess(
      executable: "/usr/bin/unshare", arguments: prefix + ["/usr/bin/flock", path, "/bin/sleep", "600"])
    try holder.run()
    defer {
      holder.signal(SIGKILL)
      _ = holder.waitUntilExit(timeout: .seconds(60))
    }
    let held = blockUntil(timeout: .seconds(120)) {
      guard case .failure = try? MachineLock.take(atPath: path, for: "the cpufreq cap") else { return false }
      return true
    }
    try #require(held, "the holder in its own pid namespace never took the lock: \(holder.standardErrorText)")
    holder.signal(SIGKILL)
    _ = holder.waitUntilExit(timeout: .seconds(60))
    let taken = blockUntil(timeout: .seconds(120)) {
      guard case .success = try? MachineLock.take(atPath: path, for: "the cpufreq cap") else { return false }
      return true
    }
    #expect(taken, "the lock is still held after its holder's namespace ended")
  }
}
