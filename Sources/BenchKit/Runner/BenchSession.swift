#if canImport(Glibc)
  import Glibc
#endif
import BenchAnalysis
import Foundation
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// One `bench` invocation: every condition × configuration cell, interleaved, with results
/// rewritten atomically after every finished run so that Ctrl-C, a crash of the app, or a full
/// disk never loses a finished run.
public final class BenchSession: Sendable {
  let settings: RunSettings
  let runner: BenchRunner
  let progress: ProgressReporter
  let baseResults: BenchResults
  let cells = Mutex<[BenchResults.Cell]>([])
  let interruptFlag: @Sendable () -> Bool
  let realtimeSeen = Mutex(false)
  let writeProblem = Mutex<String?>(nil)

  /// Creates the session. `interrupted` is polled between and during runs.
  public init(
    settings: RunSettings, runner: BenchRunner, progress: ProgressReporter, base: BenchResults,
    interrupted: @escaping @Sendable () -> Bool
  ) {
    self.settings = settings
    self.runner = runner
    self.progress = progress
    self.baseResults = base
    self.interruptFlag = interrupted
  }

  /// Runs everything. Returns the results (complete, or what finished before an interrupt).
  public func run() -> BenchResults {
    let started = MonotonicClock.now()
    var done = 0
    let tracesDir = settings.outDir + "/traces"
    try? FileManager.default.createDirectory(atPath: tracesDir, withIntermediateDirectories: true)
    for condition in settings.conditions {
      if interruptFlag() { break }
      let burners = CPUBurners.started(for: condition, progress: progress)
      defer { burners?.stop() }
      for config in settings.configs {
        ensureCell(config: config, condition: condition, burners: burners?.count)
      }
      let rounds = settings.warmup + settings.runs
      if condition == .relock {
        var sessions: [LaunchConfiguration: BenchRunner.RelockSession] = [:]
        defer { sessions.values.forEach { $0.close() } }
        for config in settings.configs {
          switch runner.startRelockSession(
            config: config, tracePath: "\(tracesDir)/relock-\(config.rawValue).jsonl",
            interrupted: interruptFlag)
          {
          case .success(let s): sessions[config] = s
          case .failure(let e): progress.note("bench: relock/\(config): \(e.message)")
          }
        }
        for round in 0..<rounds {
          for config in settings.configs {
            if interruptFlag() { break }
            let counted = round >= settings.warmup
            let number = round - settings.warmup + 1
            let outcome: BenchRunner.RunOutcome?
            if let s = sessions[config] {
              outcome = runner.relockRun(s, number: number, interrupted: interruptFlag)
            } else {
              outcome = .init(
                record: .init(
                  run: number, ok: false, error: "the relock app did not start", phases: [:], counts: [:]),
                realtime: false)
            }
            guard let outcome else { break }
            done += 1
            finish(
              outcome, config: config, condition: condition, counted: counted, done: done, warmup: !counted)
          }
        }
      } else {
        for round in 0..<rounds {
          for config in settings.configs {
            if interruptFlag() { break }
            let counted = round >= settings.warmup
            let number = round - settings.warmup + 1
            let name =
              counted
              ? "\(condition.rawValue)-\(config.rawValue)-\(number)"
              : "\(condition.rawValue)-\(config.rawValue)-warmup\(round + 1)"
            guard
              let outcome = runner.launchRun(
                config: config, condition: condition, number: number, runID: name,
                tracePath: "\(tracesDir)/\(name).jsonl", interrupted: interruptFlag)
            else { break }
            done += 1
            finish(
              outcome, config: config, condition: condition, counted: counted, done: done, warmup: !counted)
          }
        }
      }
    }
    progress.finish()
    var results = snapshot()
    results.settings.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
    results.settings.interrupted = interruptFlag()
    save(results)
    return results
  }

  func ensureCell(config: LaunchConfiguration, condition: LaunchCondition, burners: Int?) {
    cells.withLock { cells in
      if !cells.contains(where: { $0.config == config.rawValue && $0.condition == condition.rawValue }) {
        let notApplicable = settings.expectations(for: config).inapplicablePhases(in: condition)
        cells.append(
          .init(
            config: config.rawValue, condition: condition.rawValue, camera: settings.camera.description,
            runs: 0,
            failed: 0, burners: condition == .loaded ? (burners ?? 0) : nil, phases: [:], records: [],
            notApplicable: notApplicable.isEmpty ? nil : notApplicable))
      }
    }
  }

  func finish(
    _ outcome: BenchRunner.RunOutcome, config: LaunchConfiguration, condition: LaunchCondition, counted: Bool,
    done: Int,
    warmup: Bool
  ) {
    if outcome.realtime { realtimeSeen.withLock { $0 = true } }
    let label =
      "\(condition.rawValue)/\(config.rawValue)" + (warmup ? " warm-up" : " run \(outcome.record.run)")
    let summary: String
    if outcome.record.ok {
      let observed =
        outcome.record.phases[PhaseName.firstFrameObserved].map { String(format: "%.1f ms", $0) } ?? "-"
      summary = "first frame observed \(observed)"
    } else {
      summary = "FAILED: \(outcome.record.error ?? "unknown")"
      progress.note("bench: \(label) failed: \(outcome.record.error ?? "unknown")")
    }
    progress.update(done: done, label: label, summary: summary)
    guard counted else { return }
    cells.withLock { cells in
      guard
        let i = cells.firstIndex(where: { $0.config == config.rawValue && $0.condition == condition.rawValue }
        )
      else {
        return
      }
      cells[i].records.append(outcome.record)
      cells[i].runs = cells[i].records.count
      cells[i].failed = cells[i].records.filter { !$0.ok }.count
      cells[i].phases = Self.summaries(cells[i].records)
    }
    save(snapshot())
  }

  /// Per-phase distributions over a cell's ok runs.
  static func summaries(_ records: [BenchResults.RunRecord]) -> [String: BenchResults.PhaseSummary] {
    var samples: [String: [Double]] = [:]
    for r in records where r.ok {
      for (phase, ms) in r.phases { samples[phase, default: []].append(ms) }
    }
    return samples.mapValues { Statistics.summarize($0) }
  }

  func snapshot() -> BenchResults {
    var results = baseResults
    results.cells = cells.withLock { $0 }
    results.host.realtimeCompositor = realtimeSeen.withLock { $0 }
    results.comparisons = Comparator.withinRunComparisons(results.cells)
    return results
  }

  func save(_ results: BenchResults) {
    do {
      try ResultsFile.save(results, to: settings.outDir + "/results.json")
      writeProblem.withLock { $0 = nil }
    } catch {
      let first = writeProblem.withLock { p -> Bool in
        defer { p = "\(error)" }
        return p == nil
      }
      if first { progress.note("bench: cannot write results.json (\(error)); will retry after the next run") }
    }
  }

  /// The last write error, if the final write failed.
  public var lastWriteProblem: String? { writeProblem.withLock { $0 } }
}
