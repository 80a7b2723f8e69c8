import BenchKit
import Foundation
import ResultsSchema
import TestThreads
import Testing
import TestSupport

@testable import HostConditions

/// `low-power` and `hot` through the real `bench`, with camera-app and with a third-party app
/// (`--app-config`): every run records what capped it and what the soak read.
@Suite(.blocking, .serialized, .timeLimit(.minutes(TestTime.minutes(10)))) struct ConditionsEndToEndTests {
  /// Whether this machine can cap a run: cpufreq or a cgroup bench may write.
  static let canCap: Bool = {
    if case .success = LowPowerPlan.resolve(.auto, cpufreq: CPUFrequencyCap(), cgroups: .detect()) {
      return true
    }
    return false
  }()
  static let cannotCap = "neither cpufreq nor a cgroup cpu controller is writable by this process"

  @Test(
    "camera-app in low-power and hot: the cap read back in force, the soak's readings and what the machine lacks recorded",
    .disabled(if: !canCap, Comment(rawValue: cannotCap)))
  func cameraApp() throws {
    let out = temporaryFolder("bench-conditions")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let groupsBefore = Self.runGroups()
    let outcome = try #require(
      try BenchInvocation.run(
        [
          "--runs", "1", "--warmup", "0", "--conditions", "low-power,hot", "--configs", "deferred,eager",
          "--soak-seconds", "0.5", "--run-timeout", "60", "--quiet", "--out", out,
        ], timeout: .seconds(300)))
    #expect(outcome.status == 0, "\(outcome.errors)")
    let results = try ResultsFile.load(path: out + "/results.json")
    let low = results.cells.filter { $0.condition == "low-power" }.flatMap(\.records)
    let hot = results.cells.filter { $0.condition == "hot" }.flatMap(\.records)
    #expect(low.count == 2 && hot.count == 2)
    for record in low {
      let cap = try #require(record.lowPower)
      #expect(cap.verified && record.ok, "\(cap.reason ?? record.error ?? "")")
      if cap.method != "cpufreq" { #expect((cap.periods ?? 0) > 0 && cap.quotaMicroseconds == 50_000) }
      #expect(record.hot == nil)
    }
    for record in hot {
      let soak = try #require(record.hot)
      #expect(soak.soakSeconds >= 0.5 && soak.burners >= 1)
      #expect(record.lowPower == nil)
      let missing = HostSensors().missing()
      #expect((soak.missing ?? []) == missing)
    }
    #expect(outcome.output.contains("low-power") && outcome.output.contains("hot"))
    #expect(Self.runGroups().subtracting(groupsBefore).isEmpty, "bench left its run cgroups behind")
  }

  @Test(
    "an --app command gets the same cap and soak records in low-power and hot",
    .disabled(if: !canCap, Comment(rawValue: cannotCap)))
  func customApp() throws {
    let dir = temporaryFolder("bench-conditions-custom")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript("#!/bin/sh\nexit 4\n", named: "custom", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--app", "\(app) {config}", "--configs", "deferred", "--runs", "1", "--warmup", "0", "--conditions",
        "low-power,hot", "--soak-seconds", "0.2", "--quiet", "--out", dir + "/results",
      ]))
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    let low = try #require(results.cells.first { $0.condition == "low-power" }?.records.first)
    #expect(low.lowPower?.cgroup != nil || low.lowPower?.method == "cpufreq")
    let hot = try #require(results.cells.first { $0.condition == "hot" }?.records.first)
    #expect(hot.hot?.atSpawn != nil && (hot.hot?.burners ?? 0) >= 1)
  }

  /// The `firstframe-…` cgroups under this process's own now.
  static func runGroups() -> Set<String> {
    let dir = CgroupCPUController.detect()?.ownDirectory ?? "/nonexistent"
    return Set(
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter {
        $0.hasPrefix("firstframe-")
      })
  }

  @Test(
    "a third-party app (--app-config) gets the same cap and soak records in low-power and hot",
    .disabled(if: !canCap, Comment(rawValue: cannotCap)))
  func thirdPartyApp() throws {
    let dir = temporaryFolder("bench-conditions-app")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let app = try BenchInvocation.writeScript("#!/bin/sh\nexit 3\n", named: "quick", in: dir)
    let outcome = try #require(
      try BenchInvocation.run([
        "--app-config", "quick=\(app)", "--runs", "1", "--warmup", "0", "--conditions", "low-power,hot",
        "--soak-seconds", "0.2", "--quiet", "--out", dir + "/results",
      ]))
    #expect(outcome.status == 1)
    let results = try ResultsFile.load(path: dir + "/results/results.json")
    let low = try #require(results.cells.first { $0.condition == "low-power" }?.records.first)
    #expect(low.lowPower?.cgroup != nil || low.lowPower?.method == "cpufreq")
    #expect(low.error?.contains("app exited with status 3") == true, "\(low.error ?? "")")
    let hot = try #require(results.cells.first { $0.condition == "hot" }?.records.first)
    #expect(hot.hot?.atSpawn != nil)
  }
}
