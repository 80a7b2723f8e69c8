import Foundation
import LaunchContract
import TestSupport
import Testing

@testable import BenchKit
@testable import HostConditions

/// The runner's cpufreq path on a fake sysfs tree: the cap held for the condition and restored
/// at its end (how Ctrl-C and SIGTERM end it too), applied once for `bench ab`'s two runners
/// (sharing the benchmark's resources), and each run's record read back against what was written.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct FrequencyCapRunnerTests {
  func settings(_ sys: FakeSysfs) -> RunSettings {
    var s = RunSettings()
    s.conditions = [.lowPower]
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    s.lowPowerPlan = .success(.cpufreq(cap, fraction: 0.5))
    return s
  }

  @Test(
    "prepare caps for the condition, each run reads the cap back in force, finish restores; two runners cap once"
  )
  func heldAndRestored() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(2)
    let s = settings(sys)
    let resources = RunResources(settings: s)
    let a = try BenchRunner(settings: s, resources: resources, appBinary: nil)
    let b = try BenchRunner(settings: s, resources: resources, appBinary: nil)
    _ = a.control(for: .warm).prepare()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    _ = a.control(for: .lowPower).prepare()
    _ = b.control(for: .lowPower).prepare()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    let lowPowerA = try #require(a.control(for: .lowPower) as? LowPowerCondition)
    let lowPowerB = try #require(b.control(for: .lowPower) as? LowPowerCondition)
    let record = try #require(lowPowerB.record(group: nil, placement: nil))
    #expect(record.method == "cpufreq" && record.verified, "\(record.reason ?? "")")
    #expect(record.maxFrequencyKHz == 1_500_000 && record.governor == "powersave")
    #expect(record.frequenciesKHz == ["cpu0": 2_800_000, "cpu1": 2_800_000])
    // Something else raised a CPU's ceiling during the condition: the run's cap is not in force.
    try sys.write("cpu/cpu1/cpufreq/scaling_max_freq", "3000000\n")
    let off = try #require(lowPowerA.record(group: nil, placement: nil))
    #expect(!off.verified && off.reason?.contains("cpu1 reads scaling_max_freq 3000000 kHz") == true)
    a.control(for: .lowPower).restore()
    b.control(for: .lowPower).restore()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_governor") == "performance")
    #expect(!FileManager.default.fileExists(atPath: sys.root + "/state"))
  }

  @Test("a run outside a held cap records that cpufreq was not capped, and fails")
  func notHeld() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(1)
    let runner = try BenchRunner(settings: settings(sys), appBinary: nil)
    let lowPower = try #require(runner.control(for: .lowPower) as? LowPowerCondition)
    let record = try #require(lowPower.record(group: nil, placement: nil))
    #expect(!record.verified && record.reason?.contains("was not capped") == true)
  }
}
