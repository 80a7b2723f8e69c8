import ResultsSchema
import TestSupport
import Testing
@testable import Gates

/// A baseline for the `low-power` and `hot` conditions must have been capped and soaked the same
/// way as the results it gates (`BaselineMatch`): a cgroup quota against a cpufreq cap, or a
/// 10 s soak against a 60 s one, are different experiments.
@Suite(.timeLimit(.minutes(TestTime.minutes(10)))) struct ConditionBaselineTests {
  @Test("a baseline capped another way, or soaked for another length, is a difference")
  func capAndSoakCompared() {
    var baseline = SyntheticResults.make(runs: 3)
    var results = SyntheticResults.make(runs: 3)
    baseline.settings.lowPower = "cgroup-v1-quota 50000 100000"
    results.settings.lowPower = "cpufreq at 0.5 of cpuinfo_max_freq"
    baseline.settings.soakSeconds = 60
    results.settings.soakSeconds = 10
    let differences = BaselineMatch.differences(baseline: baseline, results: results)
    #expect(
      differences.contains(
        "low-power cap cgroup-v1-quota 50000 100000 vs cpufreq at 0.5 of cpuinfo_max_freq"),
      "\(differences)")
    #expect(differences.contains("hot soak s 60 vs 10"), "\(differences)")
  }

  @Test("a side that did not run the condition is no difference: its cells are not compared")
  func absentOnOneSide() {
    let baseline = SyntheticResults.make(runs: 3)
    var results = SyntheticResults.make(runs: 3)
    results.settings.lowPower = "cgroup-v1-quota 50000 100000"
    results.settings.soakSeconds = 10
    let differences = BaselineMatch.differences(baseline: baseline, results: results)
    #expect(!differences.contains { $0.hasPrefix("low-power") || $0.hasPrefix("hot") }, "\(differences)")
  }
}
