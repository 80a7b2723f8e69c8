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
  @Test("once bench is gone its guard writes the cpufreq cap's originals back and removes the run's cgroup")
  func restoresAfterBench() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    _ = try cap.apply(fraction: 0.5)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    // Bench's claim, as the guard is told of it (a stand-in file: its name is this process's
    // token, which the state file's owner line names).
    let claims = sys.root + "/claims"
    try FileManager.default.createDirectory(atPath: claims, withIntermediateDirectories: true)
    let claim = claims + "/" + MachineClaim.currentToken
    FileDescriptorIO.close(try FileSystem.createFile(atPath: claim))
    let group = sys.root + "/cgroup/firstframe-\(MachineClaim.currentToken)-run"
    try FileManager.default.createDirectory(atPath: group, withIntermediateDirectories: true)
    let pipe = Pipe()
    let guardProcess = TestProcess(
      executable: BuiltProducts.path("bench"), arguments: ["__guard"], input: pipe)
    try guardProcess.run()
    defer {
      guardProcess.signal(SIGKILL)
      _ = guardProcess.waitUntilExit(timeout: .seconds(60))
    }
    pipe.fileHandleForWriting.write(
      Data("unclaim \(claim)\nrestore \(sys.root)/state\nrmdir \(group)\n".utf8))
    // Bench is gone: nobody holds the pipe's write end any longer.
    try pipe.fileHandleForWriting.close()
    #expect(guardProcess.waitUntilExit(timeout: .seconds(120)))
    for n in 0..<2 {
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_max_freq") == "3000000")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_governor") == "performance")
    }
    #expect(!FileManager.default.fileExists(atPath: sys.root + "/state"))
    #expect(!FileManager.default.fileExists(atPath: group))
    #expect(!FileManager.default.fileExists(atPath: claim))
  }
}
