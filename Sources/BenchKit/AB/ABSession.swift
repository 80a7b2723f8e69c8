import Foundation
import HostConditions
import LaunchContract
import ResultsSchema
import SystemCalls

/// Which revision of a `bench ab` comparison: A is the reference, B the new one.
package enum ABSide: String, Sendable, CaseIterable {
  /// The reference revision (REV_A).
  case a = "A"
  /// The new revision (REV_B).
  case b = "B"
}

/// One run of a `bench ab` session: a launch of one side's camera-app.
package struct ABStep: Sendable, Equatable {
  /// The condition it runs under.
  package var condition: LaunchCondition
  /// The configuration.
  package var config: LaunchConfiguration
  /// Whose camera-app.
  package var side: ABSide
  /// The round within the condition, from 0; the first `warmup` rounds are not counted.
  package var round: Int
}

/// `bench ab`'s measuring: both revisions' camera-apps run under the same conditions and
/// configurations, interleaved run by run, so that whatever drifts on the machine (heat, other
/// load, the page cache) hits both alike. Each side has its own ``BenchSession`` with its own run
/// journal in its own results folder (`A/`, `B/`): every finished run is on the disk before the
/// next starts, exactly as in `bench`, and each side's results are assembled from its runs at the
/// end (``RunJournal/assemble(base:cells:realtime:)``).
package final class ABSession: Sendable {
  let settings: RunSettings
  let sides: [ABSide: BenchSession]
  let progress: ProgressReporter
  let interrupted: @Sendable () -> Bool

  /// The order of the runs: within each condition, round by round, configuration by
  /// configuration, one run of each side: A B in even rounds and B A in odd ones (A B B A …), so
  /// that neither side is always the one that runs right after the other.
  package static func order(conditions: [LaunchCondition], configs: [LaunchConfiguration], rounds: Int)
    -> [ABStep]
  {
    var steps: [ABStep] = []
    for condition in conditions {
      for round in 0..<rounds {
        for config in configs {
          for side in round % 2 == 0 ? [ABSide.a, .b] : [.b, .a] {
            steps.append(ABStep(condition: condition, config: config, side: side, round: round))
          }
        }
      }
    }
    return steps
  }

  /// Creates the session: `settings` says what to run (conditions, configurations, runs,
  /// warm-up); `sides` holds each side's session (its runner runs that side's camera-app, its
  /// journal is in that side's folder).
  package init(
    settings: RunSettings, sides: [ABSide: BenchSession], progress: ProgressReporter,
    interrupted: @escaping @Sendable () -> Bool
  ) {
    self.settings = settings
    self.sides = sides
    self.progress = progress
    self.interrupted = interrupted
  }

  /// Runs every step of ``order(conditions:configs:rounds:)``. Returns each side's results
  /// (complete, or what finished before an interrupt), `complete` true: the caller writes them
  /// as the final results (``RunCommand``'s `finish`).
  package func run() -> [ABSide: BenchResults] {
    let started = MonotonicClock.now()
    var done = 0
    // Each condition prepared once for both sides (their runners share its control).
    let runners = ABSide.allCases.compactMap { sides[$0]?.runner }
    ConditionLoop(
      conditions: settings.conditions, runners: runners, progress: progress, interrupted: interrupted
    )
    .run { condition, preparation in
      var relock: [ABSide: [BenchConfiguration: any RelockRunning]] = [:]
      defer { relock.values.forEach { $0.values.forEach { $0.close() } } }
      for side in ABSide.allCases {
        relock[side] = sides[side]?.start(condition, burners: preparation.burners, done: &done)
      }
      let steps = Self.order(
        conditions: [condition], configs: settings.configs, rounds: settings.warmup + settings.runs)
      for step in steps {
        if interrupted() { return false }
        guard let session = sides[step.side] else { continue }
        guard
          session.perform(
            config: .builtIn(step.config), condition: condition, round: step.round,
            relock: relock[step.side] ?? [:], done: &done)
        else { return false }
      }
      return true
    }
    progress.finish()
    return sides.mapValues { $0.results(since: started) }
  }
}
