#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import TestThreads
import Testing

@testable import HostConditions

/// What bench's process guard undoes when bench dies without undoing it (SIGKILL): the guard is
/// bench's own `__guard` command, and bench's death is the end of its pipe. On a fake cpufreq tree
/// and a fake cgroup folder (this machine has no cpufreq).
@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct GuardRestoreTests {
  /// A fake tree of `cpus` CPUs capped at half by this process, and the stand-in of bench's
  /// claim file as the guard is told of it (its name is this process's token, which the state
  /// file's owner line names).
  static func capped(_ sys: FakeSysfs, cpus: Int) throws -> (state: String, claim: String) {
    try sys.addCPUs(cpus)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    _ = try cap.apply(fraction: 0.5)
    let claims = sys.root + "/claims"
    try FileManager.default.createDirectory(atPath: claims, withIntermediateDirectories: true)
    let claim = claims + "/" + MachineClaim.currentToken
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claim))
    return (cap.statePath, claim)
  }

  /// Bench's guard, told `messages`, then left alone as when bench is gone: nobody holds its
  /// pipe's write end any longer.
  static func guardAfterBench(_ messages: [String]) throws -> TestProcess {
    let pipe = Pipe()
    let guardProcess = TestProcess(
      executable: BuiltProducts.path("bench"), arguments: ["__guard"], input: pipe)
    try guardProcess.run()
    pipe.fileHandleForWriting.write(Data(messages.map { $0 + "\n" }.joined().utf8))
    try pipe.fileHandleForWriting.close()
    return guardProcess
  }

  @Test("once bench is gone its guard writes the cpufreq cap's originals back and removes the run's cgroup")
  func restoresAfterBench() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let (state, claim) = try Self.capped(sys, cpus: 2)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    let group = sys.root + "/cgroup/firstframe-\(MachineClaim.currentToken)-run"
    try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true)
    let guardProcess = try Self.guardAfterBench(["unclaim " + claim, "restore " + state, "rmdir " + group])
    defer {
      guardProcess.signal(SIGKILL)
      _ = guardProcess.waitUntilExit(timeout: .seconds(60))
    }
    #expect(guardProcess.waitUntilExit(timeout: .seconds(120)))
    for n in 0..<2 {
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_max_freq") == "3000000")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_governor") == "performance")
    }
    #expect(!FileManager.default.fileExists(atPath: state))
    #expect(!FileManager.default.fileExists(atPath: group))
    #expect(!FileManager.default.fileExists(atPath: claim))
  }

  @Test(
    "the guard writes a cap back only under the machine lock: while the next bench holds it, the cap is that bench's to undo"
  )
  func waitsForTheMachine() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let (state, claim) = try Self.capped(sys, cpus: 1)
    let lockPath = sys.root + "/machine.lock"
    // The next bench, holding the machine.
    var next: MachineLock? = try MachineLock.take(atPath: lockPath, for: "the cpufreq cap").get()
    let guardProcess = try Self.guardAfterBench(["unclaim " + claim, "lock " + lockPath, "restore " + state])
    defer {
      guardProcess.signal(SIGKILL)
      _ = guardProcess.waitUntilExit(timeout: .seconds(60))
    }
    let waiting = blockUntil(timeout: .seconds(120)) {
      guardProcess.standardErrorText.contains("waiting for the machine")
    }
    #expect(waiting, "the guard did not wait for the machine: \(guardProcess.standardErrorText)")
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    withExtendedLifetime(next) {}
    next = nil
    #expect(guardProcess.waitUntilExit(timeout: .seconds(120)))
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    #expect(!FileManager.default.fileExists(atPath: claim))
  }
}
