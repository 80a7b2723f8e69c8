import CommandLineKit
import Foundation
import LaunchContract
import Reports
import ResultsSchema
import TestSupport
import Testing
@testable import BenchCommands
@testable import BenchKit
@testable import HostConditions

/// `--conditions …,low-power,hot`, `--low-power` and `--soak-seconds` on the command line, and
/// what the results and the table say about the two conditions.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ConditionOptionsTests {
  func parse(_ args: [String]) throws -> RunCommand.Options? {
    try RunCommand.parse(args + ["--out", scratchFolder("ff-conditions")])
  }

  @Test("low-power and hot are run only when named; --low-power and --soak-seconds are read")
  func options() throws {
    let defaults = try #require(try parse([]))
    #expect(!defaults.settings.conditions.contains(.lowPower) && !defaults.settings.conditions.contains(.hot))
    #expect(defaults.settings.lowPower == .auto && defaults.settings.soakSeconds == 60)
    let named = try #require(
      try parse(["--conditions", "low-power,hot", "--low-power", "quota:0.2", "--soak-seconds", "5"]))
    #expect(named.settings.conditions == [.lowPower, .hot])
    #expect(named.settings.lowPower == .quota(0.2) && named.settings.soakSeconds == 5)
  }

  @Test("a bad --low-power or --soak-seconds is one line naming the option")
  func badValues() {
    for (args, word) in [
      (["--low-power", "quota:2"], "--low-power"), (["--low-power", "turbo"], "--low-power"),
      (["--soak-seconds", "-1"], "--soak-seconds"),
    ] {
      do {
        _ = try parse(args)
        Issue.record("accepted \(args)")
      } catch let error as UsageError {
        #expect(error.message.contains(word) && !error.message.contains("\n"), "\(error.message)")
      } catch {
        Issue.record("not a usage error: \(error)")
      }
    }
  }

  @Test("where the CPU cannot be capped, low-power's cells are not run and the table says why")
  func notRun() {
    var s = RunSettings()
    s.conditions = [.lowPower]
    s.lowPowerPlan = .failure(
      LowPowerUnavailable("neither cpufreq nor the cgroup cpu controller is writable by bench"))
    let reason = s.notRunReason(for: .builtIn(.deferred), in: .lowPower)
    #expect(reason?.hasPrefix("low-power: neither cpufreq") == true)
    #expect(s.notRunReason(for: .builtIn(.deferred), in: .hot) == nil)
    var results = SyntheticResults.make(conditions: ["cold"], runs: 3)
    results.settings.notRun = ["low-power/deferred": reason ?? ""]
    #expect(ResultsTable.text(results).contains("not run: low-power/deferred: low-power: neither cpufreq"))
  }

  @Test(
    "the table says how each low-power cell was capped and how each hot cell soaked, and what the machine lacks"
  )
  func tableNotes() {
    var results = SyntheticResults.make(conditions: ["low-power", "hot"], runs: 2)
    for i in results.cells.indices {
      for j in results.cells[i].records.indices {
        if results.cells[i].condition == "low-power" {
          var cap = BenchResults.LowPowerRecord(method: "cgroup-v1-quota", verified: j == 0)
          (cap.quotaMicroseconds, cap.periodMicroseconds, cap.placement) = (50_000, 100_000, "before-exec")
          cap.throttledPeriods = 3
          cap.cpuPercent = j == 0 ? 24 : 48
          results.cells[i].records[j].lowPower = cap
        } else {
          results.cells[i].records[j].hot = BenchResults.HotRecord(
            soakSeconds: 10, burners: 2, cpus: [0, 1], beforeSoak: .init(psiCPU: 1),
            atSpawn: .init(psiCPU: 40),
            missing: ["no thermal zones (/sys/class/thermal/thermal_zone*/temp)"])
          results.cells[i].records[j].counts["power_up_cold"] = 1
        }
      }
    }
    let text = ResultsTable.text(results)
    #expect(
      text.contains(
        "- low-power/deferred: cgroup-v1-quota 50000 µs per 100000 µs, placed before-exec; cap read back in force in 1 of 2 runs, throttled in 2; the app got 36.0 % of a CPU (median of 2 runs; quota 50.0 %)"
      ), "\(text)")
    #expect(
      text.contains(
        "- hot/eager: soak of 10.0 s on 2 CPUs before each launch; this machine has no thermal zones"))
    // hot records its power-up and does not check it: a cold one is noted, not called a failure.
    #expect(!text.contains("runs whose device was cold in hot"), "\(text)")
    #expect(
      text.contains("- device power-up in hot/eager: cold in 2 of 2 runs (recorded, not checked in hot)"))
  }
}
