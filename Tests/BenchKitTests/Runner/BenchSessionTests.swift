import BenchKit
import Foundation
import Gates
import LaunchContract
import ResultsSchema
import Subprocess
import Synchronization
import SystemCalls
import TestSupport
import TestThreads
import Testing

/// A runner that answers at once: run `interruptAt` (1-based, counting every call) comes back
/// interrupted, as a Ctrl-C during that run would make it.
final class ScriptedRunner: RunPerforming {
  let calls = PThreadMutex(0)
  /// Every launch run's id, in order.
  let runIDs = PThreadMutex<[String]>([])
  let interruptAt: Int?
  let interrupted = Atomic<Bool>(false)

  init(interruptAt: Int? = nil) { self.interruptAt = interruptAt }

  func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    let call = calls.withLock { c in
      c += 1
      return c
    }
    runIDs.withLock { $0.append(runID) }
    if call == interruptAt {
      self.interrupted.store(true, ordering: .relaxed)
      return nil
    }
    let ms = Double(100 + call)
    return RunOutcome(
      record: .init(
        run: number, ok: call % 5 != 0, error: call % 5 == 0 ? "scripted failure" : nil,
        phases: [PhaseName.firstFrameObserved: ms, PhaseName.processLaunch: ms / 10],
        counts: ["stale_frames": 0]),
      realtime: false)
  }

  func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  ) -> Result<any RelockRunning, RunnerError> {
    .failure(RunnerError(.spawnFailed, "no relock here"))
  }
}

@Suite(.blocking) struct BenchSessionTests {
  static func settings(runs: Int, out: String) -> RunSettings {
    var s = RunSettings()
    s.runs = runs
    s.warmup = 0
    s.conditions = [.cold, .warm]
    s.configs = [.deferred, .eager]
    s.outDir = out
    return s
  }

  static let base = SyntheticResults.make(runs: 0)

  @Test("an interrupt ends the whole session at once: no later round or condition polls or runs again")
  func interruptEndsEveryLoop() {
    let out = temporaryFolder("session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let runner = ScriptedRunner(interruptAt: 3)
    let polls = PThreadMutex(0)
    let session = BenchSession(
      settings: Self.settings(runs: 10_000, out: out), runner: runner,
      progress: ProgressReporter(total: 0, quiet: true), base: Self.base,
      interrupted: { [runner] in
        polls.withLock { $0 += 1 }
        return runner.interrupted.load(ordering: .relaxed)
      })
    let results = session.run()
    #expect(runner.calls.withLock { $0 } == 3)
    #expect(results.settings.interrupted)
    #expect(results.cells.reduce(0) { $0 + $1.records.count } == 2)
    // Three polls before each of the three runs at most, and the final check: not one per round
    // of the 10,000 left.
    #expect(polls.withLock { $0 } < 20, "the loops kept spinning after the interrupt")
  }

  @Test("every finished run is in the journal, and the journal rebuilds the same results")
  func journalRebuildsResults() throws {
    let out = temporaryFolder("session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let journal = try RunJournal(folder: out, base: Self.base)
    let session = BenchSession(
      settings: Self.settings(runs: 6, out: out), runner: ScriptedRunner(),
      progress: ProgressReporter(total: 0, quiet: true), base: Self.base, journal: journal,
      interrupted: { false })
    let results = session.run()
    #expect(results.complete == true)
    let read = try RunJournal.read(path: journal.path)
    #expect(!read.hasEnd)
    #expect(read.unreadableLines == 0)
    #expect(read.results.complete == false)
    #expect(read.results.cells.map(\.condition) == results.cells.map(\.condition))
    for (rebuilt, original) in zip(read.results.cells, results.cells) {
      #expect(rebuilt.records.map(\.run) == original.records.map(\.run))
      #expect(rebuilt.runs == original.runs && rebuilt.failed == original.failed)
      #expect(rebuilt.phases == original.phases)
    }
    #expect(results.cells.reduce(0) { $0 + $1.records.count } == 24)
    try journal.end(interrupted: false)
    #expect(try RunJournal.read(path: journal.path).hasEnd)
  }

  @Test("a journal cut in the middle of a line (a killed bench) still gives every whole run")
  func cutJournal() throws {
    let out = temporaryFolder("session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let journal = try RunJournal(folder: out, base: Self.base)
    let session = BenchSession(
      settings: Self.settings(runs: 3, out: out), runner: ScriptedRunner(),
      progress: ProgressReporter(total: 0, quiet: true), base: Self.base, journal: journal,
      interrupted: { false })
    _ = session.run()
    let size = try #require(try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int)
    #expect(truncate(journal.path, off_t(size - 40)) == 0)
    let read = try RunJournal.read(path: journal.path)
    #expect(read.unreadableLines == 1)
    #expect(read.results.cells.reduce(0) { $0 + $1.records.count } == 11)
    #expect(read.results.settings.interrupted)
  }
  /// Before the fix, with `--warmup 0` the first warm run of a cell followed no run at all (the
  /// device never opened, so it powered up cold and failed): seen failing with no priming run.
  @Test(
    "--warmup 0: a warm or loaded cell whose configuration has not run yet is primed by one uncounted run, kept in the cell"
  )
  func priming() throws {
    let out = temporaryFolder("session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    var settings = Self.settings(runs: 2, out: out)
    settings.conditions = [.warm, .cold, .warm]
    let journal = try RunJournal(folder: out, base: Self.base)
    let runner = ScriptedRunner()
    let results = BenchSession(
      settings: settings, runner: runner, progress: ProgressReporter(total: 0, quiet: true), base: Self.base,
      journal: journal, interrupted: { false }
    ).run()
    let ids = runner.runIDs.withLock { $0 }
    #expect(
      Array(ids.prefix(4)) == [
        "warm-deferred-priming", "warm-eager-priming", "warm-deferred-1", "warm-eager-1",
      ],
      "\(ids)")
    // Cold needs no priming, and the second warm condition follows the first's runs.
    #expect(ids.filter { $0.hasSuffix("-priming") }.count == 2, "\(ids)")
    let warm = try #require(results.cells.first { $0.condition == "warm" && $0.config == "deferred" })
    #expect(warm.priming?.run == 0)
    #expect(warm.runs == 4 && warm.records.allSatisfy { $0.run > 0 })
    #expect(results.cells.first { $0.condition == "cold" }?.priming == nil)
    // The journal keeps the priming run with its cell.
    let read = try RunJournal.read(path: journal.path)
    #expect(read.results.cells.first { $0.condition == "warm" }?.priming?.run == 0)

    #expect(settings.primedCells == ["warm/deferred", "warm/eager"])
    settings.conditions = [.cold, .warm, .loaded]
    #expect(settings.primedCells.isEmpty)
    settings.conditions = [.loaded, .relock]
    #expect(settings.primedCells == ["loaded/deferred", "loaded/eager"])
    settings.warmup = 1
    #expect(settings.primedCells.isEmpty)
  }
}
