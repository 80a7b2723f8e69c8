import Foundation
import LaunchContract
import PhaseTrace
import ResultsSchema
import SystemCalls
import TestSupport
import Testing

@testable import HostConditions

/// Each launch condition's control without a benchmark: what it prepares, what it sets up per
/// run, how a run's record says whether the condition held, and that it restores once.
@Suite struct LaunchConditionControlTests {
  /// Never interrupted.
  static let running: @Sendable () -> Bool = { false }

  static func record() -> BenchResults.RunRecord {
    BenchResults.RunRecord(run: 1, ok: true, error: nil, phases: [:], counts: [:])
  }

  @Test("warm and relock prepare nothing, set nothing up per run and leave the record as it was")
  func unprepared() throws {
    for condition in [LaunchCondition.warm, .relock] {
      let control = UnpreparedCondition(condition)
      #expect(control.condition == condition)
      let prepared = control.prepare()
      #expect(prepared.note == nil && prepared.burners == nil)
      let run = try #require(
        control.beginRun(ConditionRunContext(runID: "r", benchPID: 1), interrupted: Self.running))
      #expect(run.failure == nil && run.cgroup == nil && run.onFirstFrame == nil)
      var record = Self.record()
      run.verify(ConditionRunObservation(mappedFiles: ["/x"]), into: &record)
      #expect(record.ok && record.counts.isEmpty && record.lowPower == nil && record.hot == nil)
      control.restore()
    }
  }

  @Test(
    "a cold run marks the app cold, evicts the runner's files, and counts what the app mapped outside them")
  func cold() throws {
    let folder = temporaryFolder("cold-condition")
    defer { try? FileSystem.remove(atPath: folder, absentIsFine: true) }
    let file = folder + "/library.so"
    try FileSystem.replaceAtomically(Array(repeating: 7, count: 4096), atPath: file)
    let marked = PThreadMutex(false)
    let context = ConditionRunContext(
      runID: "cold-deferred-1", benchPID: 1, evictionFiles: { [file] },
      markCold: { marked.withLock { $0 = true } })
    let run = try #require(ColdCondition().beginRun(context, interrupted: Self.running) as? ColdRun)
    #expect(marked.withLock { $0 })
    #expect(run.files == [file] && run.eviction.filesEvicted == 1 && run.eviction.bytesEvicted == 4096)
    var record = Self.record()
    run.verify(
      ConditionRunObservation(mappedFiles: [file, "/usr/lib/other.so", "/usr/lib/third.so"]), into: &record)
    #expect(record.counts[.evictedFiles] == 1 && record.counts[.evictedBytes] == 4096)
    #expect(record.counts[.mappedNotEvicted] == 2)
    #expect(record.counts[.dropCaches] == (run.eviction.droppedCaches ? 1 : 0))
    #expect(record.ok)
  }

  @Test("a hot run keeps its first-frame reading once and the app's pressure level; without burners it fails")
  func hot() {
    var soaked = BenchResults.HotRecord(
      soakSeconds: 1, burners: 2, cpus: [0, 1], beforeSoak: .init(psiCPU: 1), atSpawn: .init(psiCPU: 2))
    soaked.burnerCPUSeconds = 1.8
    let run = HotRun(record: soaked, sensors: HostSensors())
    run.firstFrameReading.keep(.init(psiCPU: 3))
    run.firstFrameReading.keep(.init(psiCPU: 4))
    let pressure = PhaseEvent(
      ts: 5, name: EventName.pressureLevel.rawValue, kind: .event, pid: 9, fields: ["level": "serious"])
    var record = Self.record()
    run.verify(ConditionRunObservation(appEvents: [pressure]), into: &record)
    #expect(record.ok)
    #expect(record.hot?.atFirstFrame?.psiCPU == 3 && record.hot?.appPressureLevel == "serious")
    var unsoaked = soaked
    unsoaked.burners = 0
    var failed = Self.record()
    HotRun(record: unsoaked, sensors: HostSensors()).verify(ConditionRunObservation(), into: &failed)
    #expect(!failed.ok && failed.error?.contains("the launch was not soaked") == true)
  }

  @Test(
    "a hot run is soaked by what the machine measured: a thermal zone's rise where there is one, else the burners' CPU time"
  )
  func hotVerifiedByWhatItDid() {
    var record = BenchResults.HotRecord(
      soakSeconds: 10, burners: 2, cpus: [0, 1], beforeSoak: .init(), atSpawn: .init())
    // No thermal zone: the burners' CPU time over the soak (20 CPU-seconds offered).
    record.burnerCPUSeconds = 19
    #expect(HotRun.soakFailure(record) == nil)
    record.burnerCPUSeconds = 4
    #expect(
      HotRun.soakFailure(record)?.contains(
        "got 20 % of their CPUs (4.0 s of 20.0 s) and the CPUs were busy 0 %")
        == true)
    // A machine busy with other work: the CPUs were loaded though the burners got a fifth.
    record.cpuBusyShare = 0.97
    #expect(HotRun.soakFailure(record) == nil)
    record.cpuBusyShare = 0.5
    #expect(HotRun.soakFailure(record)?.contains("busy 50 % of the soak") == true)
    record.burnerCPUSeconds = nil
    #expect(HotRun.soakFailure(record)?.contains("cannot be verified") == true)
    // A thermal zone decides where there is one, whatever the burners got.
    record.beforeSoak = .init(thermalCelsius: ["thermal_zone0:x86_pkg_temp": 45, "thermal_zone1": 40])
    record.atSpawn = .init(thermalCelsius: ["thermal_zone0:x86_pkg_temp": 45.4, "thermal_zone1": 41])
    #expect(HotRun.soakFailure(record)?.contains("45.0 °C before and 45.4 °C at the spawn") == true)
    record.atSpawn = .init(thermalCelsius: ["thermal_zone0:x86_pkg_temp": 52])
    #expect(HotRun.soakFailure(record) == nil)
    record.beforeSoak = .init(thermalCelsius: ["thermal_zone0": 85])
    record.atSpawn = .init(thermalCelsius: ["thermal_zone0": 84])
    #expect(HotRun.soakFailure(record) == nil, "a zone at 84 °C is hot")
  }

  @Test(
    "low-power without a plan records nothing; a quota whose cgroup cannot be made fails the run with the reason"
  )
  func lowPowerRuns() throws {
    let none = LowPowerCondition(plan: nil)
    let plain = try #require(
      none.beginRun(ConditionRunContext(runID: "r", benchPID: 1), interrupted: Self.running))
    var record = Self.record()
    plain.verify(ConditionRunObservation(), into: &record)
    #expect(record.lowPower == nil && record.ok)
    let folder = temporaryFolder("low-power-condition")
    defer { try? FileSystem.remove(atPath: folder, absentIsFine: true) }
    // A v1 hierarchy whose bench folder is a file: the run's cgroup cannot be made under it.
    try FileSystem.replaceAtomically("", atPath: folder + "/bench")
    let controller = CgroupCPUController(version: .v1, mount: folder, ownPath: "/bench")
    let quota = LowPowerCondition(
      plan: .success(.quota(controller, CPUQuota(quotaMicroseconds: 50_000, periodMicroseconds: 100_000))))
    let run = try #require(
      quota.beginRun(
        ConditionRunContext(runID: "low-power-deferred-1", benchPID: 1), interrupted: Self.running))
    let reason = try #require(run.failure)
    #expect(reason.hasPrefix("low-power cap not applied:") && run.cgroup == nil)
    var failed = BenchResults.RunRecord(run: 1, ok: false, error: reason, phases: [:], counts: [:])
    run.verify(ConditionRunObservation(), into: &failed)
    #expect(failed.lowPower?.method == "cgroup-v1-quota" && failed.lowPower?.verified == false)
    #expect(failed.lowPower?.reason == reason)
  }

  @Test("low-power with cpufreq caps once however often it is prepared, and restores once")
  func lowPowerOnce() throws {
    let sys = FakeSysfs()
    defer { sys.remove() }
    try sys.addCPUs(1)
    let cap = CPUFrequencyCap(root: sys.cpuRoot, statePath: sys.root + "/state")
    let control = LowPowerCondition(plan: .success(.cpufreq(cap, fraction: 0.5)))
    control.restore()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    _ = control.prepare()
    _ = control.prepare()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "1500000")
    control.restore()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "3000000")
    try sys.write("cpu/cpu0/cpufreq/scaling_max_freq", "2000000\n")
    control.restore()
    #expect(sys.read("cpu/cpu0/cpufreq/scaling_max_freq") == "2000000")
  }
}
