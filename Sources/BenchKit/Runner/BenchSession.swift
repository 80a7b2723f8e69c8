import Foundation
import Gates
import HostConditions
import LaunchContract
import PhaseTrace
import ResultsSchema
import Synchronization
import SystemCalls

/// One `bench` invocation: every condition × configuration cell, interleaved. Each finished
/// counted run is appended to the run journal (one line, flushed to the disk) before the next
/// starts, so Ctrl-C, a crash of the app, a killed bench or a full disk never loses a finished
/// run; the results (distributions, comparisons) are computed once, at the end. The cost of a run's
/// bookkeeping does not grow with the runs before it.
package final class BenchSession: Sendable {
  let settings: RunSettings
  let runner: any RunPerforming
  let progress: ProgressReporter
  let baseResults: BenchResults
  let journal: RunJournal?
  let cells = PThreadMutex<[BenchResults.Cell]>([])
  let interruptFlag: @Sendable () -> Bool
  let realtimeSeen = PThreadMutex(false)
  let journalProblemShown = PThreadMutex(false)
  let label: String?

  /// Creates the session. `interrupted` is polled between and during runs; `journal` receives
  /// each finished run (nil: the runs are only kept in memory); `label` (a `bench ab` side, "A"
  /// or "B") heads its progress lines.
  package init(
    settings: RunSettings, runner: any RunPerforming, progress: ProgressReporter, base: BenchResults,
    journal: RunJournal? = nil, label: String? = nil, interrupted: @escaping @Sendable () -> Bool
  ) {
    self.label = label
    self.settings = settings
    self.runner = runner
    self.progress = progress
    self.baseResults = base
    self.journal = journal
    self.interruptFlag = interrupted
  }

  /// Runs everything. Returns the results (complete, or what finished before an interrupt), with
  /// `complete` true: the caller writes them as the final results.
  package func run() -> BenchResults {
    let started = MonotonicClock.now()
    var done = 0
    ConditionLoop(
      conditions: settings.conditions, runners: [runner], progress: progress, interrupted: interruptFlag
    )
    .run { condition, preparation in
      let relock = start(condition, burners: preparation.burners, done: &done)
      defer { close(relock) }
      // A configuration that cannot apply in this condition (relock for a third-party app) gets
      // no cell: results say why under `settings.notRun`, and the table prints it.
      let configs = configurations(in: condition)
      for round in 0..<(settings.warmup + settings.runs) {
        for config in configs {
          if interruptFlag() { return false }
          guard perform(config: config, condition: condition, round: round, relock: relock, done: &done)
          else { return false }
        }
      }
      return true
    }
    progress.finish()
    return results(since: started)
  }

  /// Starts `condition`: its cells (one journal line each; a cell that ``RunSettings/primes(_:in:)``
  /// after its priming run, which it keeps) and, for relock, each configuration's long-lived app.
  /// Returns those apps (the caller closes them); one that did not start is noted, and its runs
  /// fail. `done` counts the priming runs.
  func start(_ condition: LaunchCondition, burners: Int?, done: inout Int) -> [BenchConfiguration:
    any RelockRunning]
  {
    try? FileSystem.createDirectory(atPath: tracesDir)
    let configs = configurations(in: condition)
    for config in configs {
      if interruptFlag() { return [:] }
      var priming: BenchResults.RunRecord?
      if settings.primes(config, in: condition), !hasCell(config: config, condition: condition) {
        guard let record = prime(config: config, condition: condition, done: &done) else { return [:] }
        priming = record
      }
      startCell(config: config, condition: condition, burners: burners, priming: priming)
    }
    guard condition == .relock else { return [:] }
    var sessions: [BenchConfiguration: any RelockRunning] = [:]
    for config in configs {
      if interruptFlag() { break }
      switch runner.startRelockSession(
        config: config, tracePath: "\(tracesDir)/relock-\(config.name).jsonl", interrupted: interruptFlag)
      {
      case .success(let session): sessions[config] = session
      case .failure(let error): progress.note("bench: \(labelPrefix)relock/\(config): \(error.message)")
      }
    }
    return sessions
  }

  /// Ends a relock condition's apps; what one had left and was killed when it ended (after its
  /// last run's count) is said in one line.
  func close(_ relock: [BenchConfiguration: any RelockRunning]) {
    for (config, app) in relock {
      if let escaped = app.close(), escaped > 0 {
        progress.note(
          "bench: \(labelPrefix)relock/\(config): \(escaped) escaped processes killed when its app ended")
      }
    }
  }

  /// One run of `config` under `condition` in round `round` (from 0; the first `warmup` rounds
  /// are not counted), recorded with ``finish(_:config:condition:counted:done:warmup:)``;
  /// `relock` holds the condition's apps from ``start(_:burners:)``. Returns false when an
  /// interrupt stopped the run (nothing is recorded).
  func perform(
    config: BenchConfiguration, condition: LaunchCondition, round: Int,
    relock: [BenchConfiguration: any RelockRunning], done: inout Int
  ) -> Bool {
    let counted = round >= settings.warmup
    let number = round - settings.warmup + 1
    let outcome: RunOutcome?
    if condition == .relock {
      if let app = relock[config] {
        outcome = app.run(number: number, interrupted: interruptFlag)
      } else {
        outcome = .init(
          record: .init(
            run: number, ok: false, error: "the relock app did not start", phases: [:], counts: [:]),
          realtime: false)
      }
    } else {
      let name =
        counted
        ? "\(condition.rawValue)-\(config.name)-\(number)"
        : "\(condition.rawValue)-\(config.name)-warmup\(round + 1)"
      outcome = runner.launchRun(
        config: config, condition: condition, number: number, runID: name,
        tracePath: "\(tracesDir)/\(name).jsonl", interrupted: interruptFlag)
    }
    guard let outcome else { return false }
    done += 1
    finish(outcome, config: config, condition: condition, counted: counted, done: done, warmup: !counted)
    return true
  }

  /// The results of the runs so far, assembled as a journal is (``RunJournal/assemble(base:cells:realtime:)``),
  /// with the wall time since `started` (a ``MonotonicClock`` reading) and `complete` true.
  func results(since started: UInt64) -> BenchResults {
    var results = RunJournal.assemble(
      base: baseResults, cells: cells.withLock { $0 }, realtime: realtimeSeen.withLock { $0 })
    results.host.realtimeCamera = RunVerification.anyCameraRealtime(results.cells)
    results.settings.wallSeconds = Double(MonotonicClock.now() - started) / 1e9
    results.settings.interrupted = interruptFlag()
    results.complete = true
    return results
  }

  var tracesDir: String { settings.outDir + "/traces" }

  /// "A " for a `bench ab` side's session, else empty: put before progress labels.
  var labelPrefix: String { label.map { $0 + " " } ?? "" }

  /// The configurations that run under `condition` (a third-party app has no relock).
  func configurations(in condition: LaunchCondition) -> [BenchConfiguration] {
    settings.benchConfigurations.filter { settings.notRunReason(for: $0, in: condition) == nil }
  }

  func hasCell(config: BenchConfiguration, condition: LaunchCondition) -> Bool {
    cells.withLock { $0.contains { $0.config == config.name && $0.condition == condition.rawValue } }
  }

  func startCell(
    config: BenchConfiguration, condition: LaunchCondition, burners: Int?,
    priming: BenchResults.RunRecord? = nil
  ) {
    let cell = cells.withLock { cells -> BenchResults.Cell? in
      if cells.contains(where: { $0.config == config.name && $0.condition == condition.rawValue }) {
        return nil
      }
      let notApplicable = settings.inapplicablePhases(for: config, in: condition)
      var cell = BenchResults.Cell(
        config: config.name, condition: condition.rawValue, camera: settings.camera.description,
        runs: 0, failed: 0, burners: condition == .loaded ? (burners ?? 0) : nil, phases: [:], records: [],
        notApplicable: notApplicable.isEmpty ? nil : notApplicable)
      cell.priming = priming
      cells.append(cell)
      return cell
    }
    if let cell { journaled { () throws(ResultsFileError) in try journal?.startCell(cell) } }
  }

  func finish(
    _ outcome: RunOutcome, config: BenchConfiguration, condition: LaunchCondition, counted: Bool,
    done: Int, warmup: Bool, priming: Bool = false
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
    let what =
      labelPrefix + "\(condition.rawValue)/\(config.name)"
      + (priming ? " priming, uncounted" : warmup ? " warm-up" : " run \(outcome.record.run)")
    let summary: String
    if outcome.record.ok && !settings.expectsLiveFrame(for: config) {
      // A headless program: its run ended at its first buffer, there is no frame to observe.
      let buffer =
        outcome.record.phases[PhaseName.deviceFirstBuffer].map { String(format: "%.1f ms", $0) } ?? "-"
      summary = "first buffer \(buffer) after stream-on"
    } else if outcome.record.ok {
      let observed =
        outcome.record.phases[PhaseName.firstFrameObserved].map { String(format: "%.1f ms", $0) } ?? "-"
      summary = "first frame observed \(observed)"
    } else {
      summary = "FAILED: \(outcome.record.error ?? "unknown")"
      progress.note("bench: \(what) failed: \(outcome.record.error ?? "unknown")")
    }
    progress.update(done: done, label: what, summary: summary)
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
  package var journalProblem: ResultsFileError? { journal?.problem }
}
