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

/// How a sequential `bench ab` looks at its runs (issue 39): every ``pairsPerLook`` counted
/// rounds of a cell (one run a side each), ``decide`` reads the cell's counted runs so far, A's
/// and B's in run order, and says whether the cell has its verdict; a cell with one runs no
/// more. The session stops a condition when every cell has one, or at `settings.runs`. `look`
/// is 1-based and `last` is true at the most runs, where the decision is final whatever it is.
package struct ABLooks: Sendable {
  /// Counted pairs between looks.
  package var pairsPerLook: Int
  /// The decision at one look: true when the cell stops there.
  package var decide:
    @Sendable (
      _ condition: LaunchCondition, _ config: LaunchConfiguration, _ look: Int, _ last: Bool,
      _ a: [BenchResults.RunRecord], _ b: [BenchResults.RunRecord]
    ) -> Bool

  /// Looks every `pairsPerLook` pairs, deciding with `decide`.
  package init(
    pairsPerLook: Int,
    decide:
      @escaping @Sendable (
        LaunchCondition, LaunchConfiguration, Int, Bool, [BenchResults.RunRecord], [BenchResults.RunRecord]
      ) -> Bool
  ) {
    self.pairsPerLook = max(1, pairsPerLook)
    self.decide = decide
  }
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
  let looks: ABLooks?

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
  /// journal is in that side's folder); `looks`, when given, stops each cell at the look that
  /// decides it (a sequential comparison), else every cell runs `settings.runs`.
  package init(
    settings: RunSettings, sides: [ABSide: BenchSession], progress: ProgressReporter,
    interrupted: @escaping @Sendable () -> Bool, looks: ABLooks? = nil
  ) {
    self.settings = settings
    self.sides = sides
    self.progress = progress
    self.interrupted = interrupted
    self.looks = looks
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
      defer { relock.forEach { side, apps in sides[side]?.close(apps) } }
      for side in ABSide.allCases {
        relock[side] = sides[side]?.start(condition, burners: preparation.burners, done: &done)
      }
      let steps = Self.order(
        conditions: [condition], configs: settings.configs, rounds: settings.warmup + settings.runs)
      var decided: Set<LaunchConfiguration> = []
      for (index, step) in steps.enumerated() {
        if interrupted() { return false }
        if decided.contains(step.config) { continue }
        guard let session = sides[step.side] else { continue }
        guard
          session.perform(
            config: .builtIn(step.config), condition: condition, round: step.round,
            relock: relock[step.side] ?? [:], done: &done)
        else { return false }
        // After a round's last step, each cell still running may be looked at.
        if let looks, index + 1 == steps.count || steps[index + 1].round != step.round {
          look(looks, condition: condition, round: step.round, decided: &decided)
          if decided.count == Set(settings.configs).count { break }
        }
      }
      return true
    }
    progress.finish()
    return sides.mapValues { $0.results(since: started) }
  }

  /// At the end of `round`: when the counted rounds so far are a whole number of looks, or the
  /// last, each cell not yet `decided` is decided on its runs (``ABLooks/decide``).
  func look(_ looks: ABLooks, condition: LaunchCondition, round: Int, decided: inout Set<LaunchConfiguration>)
  {
    let counted = round - settings.warmup + 1
    let last = counted >= settings.runs
    guard counted > 0, last || counted % looks.pairsPerLook == 0 else { return }
    let look = (counted + looks.pairsPerLook - 1) / looks.pairsPerLook
    for config in settings.configs where !decided.contains(config) {
      let records = ABSide.allCases.map { side in
        sides[side]?.cells.withLock { cells in
          cells.first { $0.config == config.rawValue && $0.condition == condition.rawValue }?.records
        } ?? []
      }
      if looks.decide(condition, config, look, last, records[0], records[1]) { decided.insert(config) }
    }
  }
}
