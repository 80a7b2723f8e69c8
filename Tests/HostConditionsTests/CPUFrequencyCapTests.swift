#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import HostConditions

/// The `low-power` condition's cpufreq path, on a fake sysfs tree (this machine has no cpufreq):
/// what a power profile writes, the originals kept in a state file and put back — by the bench
/// that capped, or by the next one when that bench was killed.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct CPUFrequencyCapTests {
  @Test(
    "apply writes powersave, power and half the top frequency on every CPU, and restore puts the originals back"
  )
  func applyAndRestore() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    #expect(cap.isWritable)
    let applied = try cap.apply(fraction: 0.5)
    #expect(
      applied
        == .init(maxFrequencyKHz: 1_500_000, governor: "powersave", energyPerformancePreference: "power"))
    for n in 0..<2 {
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_max_freq") == "1500000")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_governor") == "powersave")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/energy_performance_preference") == "power")
    }
    #expect(cap.stateOwner() == getpid())
    #expect(cap.restore() == 6)
    for n in 0..<2 {
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_max_freq") == "3000000")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/scaling_governor") == "performance")
      #expect(sys.read("cpu/cpu\(n)/cpufreq/energy_performance_preference") == "balance_performance")
    }
    #expect(!FileManager.default.fileExists(atPath: sys.root + "/state"))
  }

  @Test(
    "a CPU without energy_performance_preference gets only the governor and the ceiling; the ceiling never goes below cpuinfo_min_freq"
  )
  func withoutPreference() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(1, energyPreference: false)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    let applied = try cap.apply(fraction: 0.05)
    #expect(applied.energyPerformancePreference == nil)
    #expect(applied.maxFrequencyKHz == 400_000)
    cap.restore()
  }

  @Test(
    "a second cap while one is on (another bench's, or this one's) refuses: it never saves the capped values as the originals"
  )
  func secondCapRefused() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    let first = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    let second = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    _ = try first.apply(fraction: 0.5)
    #expect(throws: CPUCapError.self) { _ = try second.apply(fraction: 0.25) }
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    #expect(first.restore() == 6)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    #expect(sys.read("cpu/cpu1/cpufreq/scaling_governor") == "performance")
  }

  @Test("the next bench restores what a killed bench left capped, and leaves a live bench's cap alone")
  func leftovers() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    _ = try cap.apply(fraction: 0.5)
    let text = try #require(try? String(contentsOfFile: sys.root + "/state", encoding: .utf8))
    func owned(by pid: String, _ token: String) throws {
      try text.replacingOccurrences(of: "pid \(getpid())", with: "pid \(pid)")
        .replacingOccurrences(of: "owner \(MachineClaim.currentToken)", with: "owner \(token)")
        .write(toFile: sys.root + "/state", atomically: true, encoding: .utf8)
    }
    // As if another bench, alive in another pid namespace (its pid 999999 is no process here),
    // had written the state file: its claim is held.
    let other = try MachineClaim()
    try owned(by: "999999", other.token)
    #expect(cap.restoreLeftovers() == 0)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    // A state file without a claim, of a bench that is alive.
    try owned(by: "999999", "999999")
    #expect(cap.restoreLeftovers(isAlive: { _ in true }) == 0)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    // As if that other bench had been SIGKILLed, its guard too, and its pid given to this
    // process since: its claim is free.
    let folder = String(other.path.dropLast(other.token.count))
    let dead = "\(getpid())x" + String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
    FileDescriptorIO.close(try FileSystem.createFile(atPath: folder + dead))
    defer { unlink(folder + dead) }
    try owned(by: "\(getpid())", dead)
    let cleanup = LowPowerCleanup.restoreLeftovers(cpufreq: cap, cgroups: nil)
    #expect(cleanup.restoredValues == 6)
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    #expect(sys.read("cpu/cpu1/cpufreq/scaling_governor") == "performance")
  }

  @Test(
    "no cpufreq: not writable; auto falls back to a quota, --low-power cpufreq cannot run, and without a cgroup neither can auto"
  )
  func plans() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    let none = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    #expect(!none.isWritable)
    let v2 = CgroupCPUController(version: .v2, mount: sys.root, ownPath: "/")
    #expect(
      LowPowerPlan.resolve(.auto, cpufreq: none, cgroups: v2)
        == .success(.quota(v2, CPUQuota(quotaMicroseconds: 50_000, periodMicroseconds: 100_000))))
    guard case .failure(let why) = LowPowerPlan.resolve(.cpufreq, cpufreq: none, cgroups: v2) else {
      Issue.record("--low-power cpufreq ran without cpufreq")
      return
    }
    #expect(why.reason.contains("cpufreq is not writable"))
    guard case .failure(let neither) = LowPowerPlan.resolve(.auto, cpufreq: none, cgroups: nil) else {
      Issue.record("auto ran with neither cpufreq nor a cgroup")
      return
    }
    #expect(neither.reason.contains("neither cpufreq nor"))
    try sys.addCPUs(1)
    let some = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    #expect(
      LowPowerPlan.resolve(.auto, cpufreq: some, cgroups: v2) == .success(.cpufreq(some, fraction: 0.5)))
    #expect(
      LowPowerPlan.resolve(.quota(0.25), cpufreq: some, cgroups: v2)
        == .success(.quota(v2, CPUQuota(quotaMicroseconds: 25_000, periodMicroseconds: 100_000))))
  }

  @Test("--low-power takes auto, cpufreq and quota:FRACTION with 0 < FRACTION <= 1 only")
  func parsing() {
    #expect(LowPowerRequest(parsing: "auto") == .auto)
    #expect(LowPowerRequest(parsing: "cpufreq") == .cpufreq)
    #expect(LowPowerRequest(parsing: "quota:0.3") == .quota(0.3))
    #expect(LowPowerRequest(parsing: "quota:1") == .quota(1))
    for bad in ["quota:0", "quota:1.5", "quota:", "quota:x", "half", ""] {
      #expect(LowPowerRequest(parsing: bad) == nil, "\(bad)")
    }
  }
}
