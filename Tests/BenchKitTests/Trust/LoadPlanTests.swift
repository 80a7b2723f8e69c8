#if canImport(Glibc)
  import Glibc
#endif
import Gates
import CommandLineKit
import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import BenchCommands
@testable import BenchKit
@testable import HostConditions

/// The loaded condition's burners: sized from the CPUs bench may run on and its cgroup's CPU
/// quota, one pinned per CPU; `--load memory` streams over a buffer bigger than the last-level cache.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct LoadPlanTests {
  @Test("one burner per allowed CPU, at most the quota rounded up, at least one")
  func burnerCount() {
    #expect(BurnerPlan.cpus(allowed: [0, 1, 2, 3], quota: nil) == [0, 1, 2, 3])
    #expect(BurnerPlan.cpus(allowed: [2, 5], quota: nil) == [2, 5])
    let oneAndHalf = CPUQuota(quotaMicroseconds: 150_000, periodMicroseconds: 100_000)
    #expect(BurnerPlan.cpus(allowed: [0, 1, 2, 3], quota: oneAndHalf) == [0, 1])
    let tiny = CPUQuota(quotaMicroseconds: 10_000, periodMicroseconds: 100_000)
    #expect(BurnerPlan.cpus(allowed: [4, 6], quota: tiny) == [4])
    let many = CPUQuota(quotaMicroseconds: 800_000, periodMicroseconds: 100_000)
    #expect(BurnerPlan.cpus(allowed: [0, 1], quota: many) == [0, 1])
    #expect(BurnerPlan.cpus(allowed: [], quota: nil) == [0])
  }

  @Test("cpu.max parsed; the tightest limit along the cgroup path wins; the cgroup v2 path read")
  func quota() {
    #expect(CPUQuota.parse(cpuMax: "max 100000\n") == nil)
    #expect(
      CPUQuota.parse(cpuMax: "200000 100000\n")
        == CPUQuota(quotaMicroseconds: 200_000, periodMicroseconds: 100_000))
    #expect(CPUQuota.parse(cpuMax: "garbage") == nil)
    #expect(CPUQuota.parse(cpuMax: "50000 0") == nil)
    #expect(CPUQuota.effective(cpuMaxFiles: ["max 100000", "300000 100000", "50000 50000"])?.cpus == 1)
    #expect(CPUQuota.effective(cpuMaxFiles: ["max 100000"]) == nil)
    #expect(
      CPUQuota.cgroupPath(procCgroup: "0::/user.slice/session-1.scope\n") == "/user.slice/session-1.scope")
    #expect(CPUQuota.cgroupPath(procCgroup: "1:name=systemd:/x\n") == nil)
  }

  @Test("the memory burners' buffer is twice the last-level cache, read from sysfs, with a fallback")
  func buffer() throws {
    #expect(LastLevelCache.parseSize("32768K\n") == 32 << 20)
    #expect(LastLevelCache.parseSize("1M") == 1 << 20)
    #expect(LastLevelCache.parseSize("x") == nil)
    #expect(BurnerPlan.bufferBytes(lastLevelCache: 32 << 20) == 64 << 20)
    #expect(BurnerPlan.bufferBytes(lastLevelCache: nil) == 32 << 20)
    #expect(BurnerPlan.bufferBytes(lastLevelCache: 1 << 10) == 8 << 20)
    #expect(BurnerPlan.bufferBytes(lastLevelCache: 1 << 40) == 1 << 30)
    let dir = temporaryFolder("llc")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for (index, level, type, size) in [
      (0, "1", "Data", "48K"), (1, "1", "Instruction", "32K"), (2, "2", "Unified", "2048K"),
      (3, "3", "Unified", "36M"),
    ] {
      try FileManager.default.createDirectory(
        atPath: "\(dir)/index\(index)", withIntermediateDirectories: true)
      for (name, text) in [("level", level), ("type", type), ("size", size)] {
        try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: "\(dir)/index\(index)/\(name)"))
      }
    }
    #expect(LastLevelCache.bytes(root: dir) == 36 << 20)
    #expect(LastLevelCache.bytes(root: dir + "/none") == nil)
  }

  @Test("a started burner is pinned to its CPU (its affinity read back)")
  func burnerIsPinned() async throws {
    let allowed = try CPUAffinity.get()
    let cpu = try #require(allowed.last)
    let plan = BurnerPlan(kind: .cpu, cpus: [cpu], quota: nil)
    let burners = try CPUBurners(plan: plan, executable: BuiltProducts.path("bench"))
    defer { burners.stop() }
    let pid = try #require(burners.processIDs.first)
    #expect(burners.count == 1)
    #expect(try CPUAffinity.get(pid: pid) == [cpu])
    #expect(try CPUAffinity.get() == allowed, "pinning the burner changed the runner's own affinity")
  }

  @Test("a memory burner streams: it runs and is pinned like a CPU burner")
  func memoryBurnerRuns() async throws {
    let cpu = try #require(try CPUAffinity.get().first)
    let plan = BurnerPlan(kind: .memory, cpus: [cpu], quota: nil, bufferBytes: 8 << 20)
    let burners = try CPUBurners(plan: plan, executable: BuiltProducts.path("bench"))
    defer { burners.stop() }
    let pid = try #require(burners.processIDs.first)
    // Its resident memory grows past the buffer once it has touched it all.
    #expect(
      await waitUntil(timeout: .seconds(90)) {
        let status = FileSystem.readText(atPath: "/proc/\(pid)/status", maxBytes: 1 << 16) ?? ""
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        let kb = rss.flatMap {
          Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return (kb ?? 0) * 1024 >= 8 << 20
      })
    #expect(try CPUAffinity.get(pid: pid) == [cpu])
  }

  @Test("--load: cpu or memory, recorded; a bad value is a usage error")
  func loadOption() throws {
    let out = scratchFolder("ff-load-option")
    #expect(try RunCommand.parse(["--out", out])?.prepare().settings.load == .cpu)
    let memory = try #require(
      try RunCommand.parse(["--load", "memory", "--conditions", "loaded", "--out", out])?.prepare().settings)
    #expect(memory.load == .memory)
    #expect(memory.burnerPlan?.kind == .memory)
    #expect((memory.burnerPlan?.bufferBytes ?? 0) >= 8 << 20)
    #expect(
      memory.burnerPlan?.cpus == BurnerPlan.cpus(allowed: try CPUAffinity.get(), quota: CPUQuota.current()))
    #expect(throws: UsageError.self) { try RunCommand.parse(["--load", "disk", "--out", out])?.prepare() }
  }

  @Test("a baseline made with another load kind is a difference")
  func baselineLoadKind() {
    var baseline = SyntheticResults.make(runs: 3)
    var results = SyntheticResults.make(runs: 3)
    #expect(
      !BaselineMatch.differences(baseline: baseline, results: results).contains { $0.hasPrefix("load") })
    baseline.settings.load = BurnerPlan(kind: .memory, cpus: [0], quota: nil, bufferBytes: 8 << 20).info
    results.settings.load = BurnerPlan(kind: .cpu, cpus: [0], quota: nil).info
    #expect(BaselineMatch.differences(baseline: baseline, results: results).contains("load memory vs cpu"))
  }
}
