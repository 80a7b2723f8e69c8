import BenchAnalysis
import Foundation
import LaunchContract
import PhaseTrace
import Synchronization
import SystemCalls

/// One `bench` invocation: every condition × configuration cell, interleaved. Each finished
/// counted run is appended to the run journal (one line, flushed to the disk) before the next
/// starts, so Ctrl-C, a crash of the app, a killed bench or a full disk never loses a finished
/// run; the results (distributions, comparisons) are computed once, at the end. The cost of a run's
/// bookkeeping does not grow with the runs before it.
public final class BenchSession: Sendable {
  let settings: RunSettings
  let runner: any RunPerforming
  let progress: ProgressReporter
  let baseResults: BenchResults
  let journal: RunJournal?
  let cells = Mutex<[BenchResults.Cell]>([])
  let interruptFlag: @Sendable () -> Bool
  let realtimeSeen = Mutex(false)
  let journalProblemShown = Mutex(false)

  /// Creates the session. `interrupted` is polled between and during runs; `journal` receives
  /// each finished run (nil: the runs are only kept in memory).
  public init(
    settings: RunSettings, runner: any RunPerforming, progress: ProgressReporter, base: BenchResults,
    journal: RunJournal? = nil, interrupted: @escaping @Sendable () -> Bool
  ) {
    self.settings = settings
    self.runner = runner
    self.progress = progress
    self.baseResults = base
    self.journal = journal
    self.interruptFlag = interrupted
  }

  /// Runs everything. Returns the results (complete, or what finished before an interrupt), with
  /// `complete` true: the caller writes them as the final results.
  public func run() -> BenchResults {
    let started = MonotonicClock.now()
    var done = 0
    let tracesDir = settings.outDir + "/traces"
    try? FileManager.default.createDirectory(atPath: tracesDir, withIntermediateDirectories: true)
    conditions: for condition in settings.conditions {
      if interruptFlag() { break }
      var burners: CPUBurners?
      if condition == .loaded {
        do {
          burners = try CPUBurners()
        } catch {
          progress.note("bench: cannot start CPU burners: \(error.message)")
        }
      }
      defer { burners?.stop() }
      // A configuration that cannot apply in this condition (relock for a third-party app) gets
      // no cell: results say why under `settings.not_run`, and the table prints it.
      let configs = settings.benchConfigurations.filter {
        settings.notRunReason(for: $0, in: condition) == nil
      }
      for config in configs {
        startCell(config: config, condition: condition, burners: burners?.count)
      }
      let rounds = settings.warmup + settings.runs
      if condition == .relock {
        var sessions: [BenchConfiguration: any RelockRunning] = [:]
        defer { sessions.values.forEach { $0.close() } }
        for config in configs {
          if interruptFlag() { break conditions }
          switch runner.startRelockSession(
            config: config, tracePath: "\(tracesDir)/relock-\(config.name).jsonl",
            interrupted: interruptFlag)
          {
          case .success(let s): sessions[config] = s
          case .failure(let e): progress.note("bench: relock/\(config): \(e.message)")
          }
        }
        for round in 0..<rounds {
          for config in configs {
            if interruptFlag() { break conditions }
            let counted = round >= settings.warmup
            let number = round - settings.warmup + 1
            let outcome: RunOutcome?
            if let s = sessions[config] {
              outcome = s.run(number: number, interrupted: interruptFlag)
            } else {
              outcome = .init(
                record: .init(
                  run: number, ok: false, error: "the relock app did not start", phases: [:], counts: [:]),
                realtime: false)
            }
            guard let outcome else { break conditions }
            done += 1
            finish(
              outcome, config: config, condition: condition, counted: counted, done: done, warmup: !counted)
          }
        }
      } else {
        for round in 0..<rounds {
          for config in configs {
            if interruptFlag() { break conditions }
            let counted = round >= settings.warmup
            let number = round - settings.warmup + 1
            let name =
              counted
              ? "\(condition.rawValue)-\(config.name)-\(number)"
              : "\(condition.rawValue)-\(config.name)-warmup\(round + 1)"
            guard
              let outcome = runner.launchRun(
                config: config, condition: condition, number: number, runID: name,
                tracePath: "\(tracesDir)/\(name).jsonl", interrupted: interruptFlag)
            else { break conditions }
            done += 1
            finish(
              outcome, config: config, condition: condition, counted: counted, done: done, warmup: !counted)
          }
        }
      }
    }
    progress.finish()
    var results = RunJournal.assemble(
      base: baseResults, cells: cells.withLock { $0 }, realtime: realtimeSeen.withLock { $0 })
    results.host.realtimeCamera = RunVerification.anyCameraRealtime(results.cells)
    results.settings.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
    results.settings.interrupted = interruptFlag()
    results.complete = true
    return results
  }

  func startCell(config: BenchConfiguration, condition: LaunchCondition, burners: Int?) {
    let cell = cells.withLock { cells -> BenchResults.Cell? in
      if cells.contains(where: { $0.config == config.name && $0.condition == condition.rawValue }) {
        return nil
      }
      let notApplicable = settings.inapplicablePhases(for: config, in: condition)
      let cell = BenchResults.Cell(
        config: config.name, condition: condition.rawValue, camera: settings.camera.description,
        runs: 0, failed: 0, burners: condition == .loaded ? (burners ?? 0) : nil, phases: [:], records: [],
        notApplicable: notApplicable.isEmpty ? nil : notApplicable)
      cells.append(cell)
      return cell
    }
    if let cell { journaled { () throws(ResultsFileError) in try journal?.startCell(cell) } }
  }

  func finish(
    _ outcome: RunOutcome, config: BenchConfiguration, condition: LaunchCondition, counted: Bool,
    done: Int, warmup: Bool
  ) {
    if outcome.realtime { realtimeSeen.withLock { $0 = true } }
    // The run is on the disk before it is announced: a bench killed after saying "run n" has it.
    if counted {
      cells.withLock { cells in
        if let i = cells.firstIndex(where: {
          $0.config == config.name && $0.condition == condition.rawValue
        }
        ) {
          cells[i].records.append(outcome.record)
        }
      }
      journaled { () throws(ResultsFileError) in
        try journal?.append(
          run: outcome.record, config: config.name, condition: condition.rawValue,
          camera: settings.camera.description, realtime: outcome.realtime)
      }
    }
    let label =
      "\(condition.rawValue)/\(config.name)" + (warmup ? " warm-up" : " run \(outcome.record.run)")
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
  }

  /// Runs a journal write; the first failure is noted once (the journal keeps the lines and
  /// retries them before the next one), and a later success says so.
  func journaled(_ write: () throws(ResultsFileError) -> Void) {
    do {
      try write()
      if journalProblemShown.withLock({ $0 }) {
        journalProblemShown.withLock { $0 = false }
        progress.note("bench: the run journal is written again; no run was lost")
      }
    } catch {
      if !journalProblemShown.withLock({ $0 }) {
        journalProblemShown.withLock { $0 = true }
        progress.note("bench: \(error); will retry after the next run")
      }
    }
  }

  /// The journal's write problem, while finished runs wait in memory for the disk.
  public var journalProblem: ResultsFileError? { journal?.problem }
}
