import BenchAnalysis
import Foundation
import LaunchContract
import SystemCalls

/// Which revision of a `bench ab` comparison: A is the reference, B the new one.
public enum ABSide: String, Sendable, CaseIterable {
  /// The reference revision (REV_A).
  case a = "A"
  /// The new revision (REV_B).
  case b = "B"
}

/// One run of a `bench ab` session: a launch of one side's camera-app.
public struct ABStep: Sendable, Equatable {
  /// The condition it runs under.
  public var condition: LaunchCondition
  /// The configuration.
  public var config: LaunchConfiguration
  /// Whose camera-app.
  public var side: ABSide
  /// The round within the condition, from 0; the first `warmup` rounds are not counted.
  public var round: Int
}

/// `bench ab`'s measuring: both revisions' camera-apps run under the same conditions and
/// configurations, interleaved run by run, so that whatever drifts on the machine (heat, other
/// load, the page cache) hits both alike. Each side keeps its own ``BenchSession``, which records
/// its runs into its own results folder exactly as `bench` does.
public final class ABSession: Sendable {
  let settings: RunSettings
  let sides: [(side: ABSide, runner: BenchRunner, session: BenchSession)]
  let progress: ProgressReporter
  let interrupted: @Sendable () -> Bool

  /// The order of the runs: within each condition, round by round, configuration by
  /// configuration, one run of each side: A B in even rounds and B A in odd ones (A B B A …), so
  /// that neither side is always the one that runs right after the other.
  public static func order(conditions: [LaunchCondition], configs: [LaunchConfiguration], rounds: Int)
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

  /// Creates the session; `sides` holds each side's runner (with that side's camera-app) and
  /// session (recording into that side's results folder).
  init(
    settings: RunSettings, sides: [(side: ABSide, runner: BenchRunner, session: BenchSession)],
    progress: ProgressReporter, interrupted: @escaping @Sendable () -> Bool
  ) {
    self.settings = settings
    self.sides = sides
    self.progress = progress
    self.interrupted = interrupted
  }

  /// Runs every step of ``order(conditions:configs:rounds:)``. Returns each side's results
  /// (complete, or what finished before an interrupt), saved in its folder.
  func run() -> [ABSide: BenchResults] {
    let started = MonotonicClock.now()
    let rounds = settings.warmup + settings.runs
    var done = 0
    for condition in settings.conditions {
      if interrupted() { break }
      let burners = CPUBurners.started(for: condition, progress: progress)
      defer { burners?.stop() }
      var relock: [String: BenchRunner.RelockSession] = [:]
      defer { relock.values.forEach { $0.close() } }
      for entry in sides {
        try? FileManager.default.createDirectory(
          atPath: entry.session.settings.outDir + "/traces", withIntermediateDirectories: true)
        for config in settings.configs {
          entry.session.ensureCell(config: config, condition: condition, burners: burners?.count)
          guard condition == .relock else { continue }
          switch entry.runner.startRelockSession(
            config: config,
            tracePath: "\(entry.session.settings.outDir)/traces/relock-\(config.rawValue).jsonl",
            interrupted: interrupted)
          {
          case .success(let s): relock["\(entry.side.rawValue)/\(config.rawValue)"] = s
          case .failure(let e): progress.note("bench: \(entry.side.rawValue) relock/\(config): \(e.message)")
          }
        }
      }
      for step in Self.order(conditions: [condition], configs: settings.configs, rounds: rounds) {
        if interrupted() { break }
        guard let entry = sides.first(where: { $0.side == step.side }) else { continue }
        let counted = step.round >= settings.warmup
        let number = step.round - settings.warmup + 1
        let outcome: BenchRunner.RunOutcome?
        if condition == .relock {
          if let s = relock["\(step.side.rawValue)/\(step.config.rawValue)"] {
            outcome = entry.runner.relockRun(s, number: number, interrupted: interrupted)
          } else {
            outcome = .init(
              record: .init(
                run: number, ok: false, error: "the relock app did not start", phases: [:], counts: [:]),
              realtime: false)
          }
        } else {
          let name =
            "\(condition.rawValue)-\(step.config.rawValue)-"
            + (counted ? "\(number)" : "warmup\(step.round + 1)")
          outcome = entry.runner.launchRun(
            config: step.config, condition: condition, number: number, runID: name,
            tracePath: "\(entry.session.settings.outDir)/traces/\(name).jsonl", interrupted: interrupted)
        }
        guard let outcome else { break }
        done += 1
        entry.session.finish(
          outcome, config: step.config, condition: condition, counted: counted, done: done, warmup: !counted)
      }
    }
    progress.finish()
    var results: [ABSide: BenchResults] = [:]
    for entry in sides {
      var r = entry.session.snapshot()
      r.settings.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
      r.settings.interrupted = interrupted()
      entry.session.save(r)
      results[entry.side] = r
    }
    return results
  }
}
