import LaunchContract
import ResultsSchema

extension BenchSession {
  /// The priming run of `config`'s cell under `condition` (``RunSettings/primes(_:in:)``): one
  /// uncounted launch of the same app under the same condition (burners and all), right before
  /// the cell's first counted run. It exists to power the device up and bring the app's files
  /// into the page cache, so its own power-up may be either: a mismatch with the condition is not
  /// its failure (any other failure is, and is noted). Returns its record (number 0), or nil when
  /// an interrupt stopped it.
  func prime(config: BenchConfiguration, condition: LaunchCondition, done: inout Int) -> BenchResults
    .RunRecord?
  {
    let name = "\(condition.rawValue)-\(config.name)-priming"
    guard
      var outcome = runner.launchRun(
        config: config, condition: condition, number: 0, runID: name, tracePath: "\(tracesDir)/\(name).jsonl",
        interrupted: interruptFlag)
    else { return nil }
    RunVerification.acceptAnyPowerUp(&outcome.record, condition: condition)
    done += 1
    finish(
      outcome, config: config, condition: condition, counted: false, done: done, warmup: true, priming: true)
    return outcome.record
  }
}
