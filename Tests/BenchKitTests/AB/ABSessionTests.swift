import BenchCommands
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

/// The runs of both sides of a `bench ab` session, in the order they were made; an interrupt
/// arrives during call `interruptAt` (1-based, counting both sides' calls).
final class ABCallLog: Sendable {
  let calls = PThreadMutex<[String]>([])
  let interruptAt: Int?
  let interrupted = Atomic<Bool>(false)

  init(interruptAt: Int? = nil) { self.interruptAt = interruptAt }

  /// Notes a call of `side`; its number, or nil when the interrupt arrives during it.
  func call(_ side: String) -> Int? {
    let n = calls.withLock { calls in
      calls.append(side)
      return calls.count
    }
    if n == interruptAt {
      interrupted.store(true, ordering: .relaxed)
      return nil
    }
    return n
  }
}

/// One side's runner: answers at once, with `first_frame_observed` = (100 + the run's number)
/// × `scale` ms, as that side's camera-app would measure.
final class ABSideRunner: RunPerforming {
  let side: String
  let scale: Double
  let log: ABCallLog

  init(side: String, scale: Double, log: ABCallLog) {
    self.side = side
    self.scale = scale
    self.log = log
  }

  func launchRun(
    config: BenchConfiguration, condition: LaunchCondition, number: Int, runID: String, tracePath: String,
    interrupted: @Sendable () -> Bool
  ) -> RunOutcome? {
    guard log.call(side) != nil else { return nil }
    let ms = (100 + Double(number)) * scale
    return RunOutcome(
      record: .init(
        run: number, ok: true, error: nil,
        phases: [PhaseName.firstFrameObserved: ms, PhaseName.processLaunch: ms / 10], counts: [:]),
      realtime: false)
  }

  func startRelockSession(
    config: BenchConfiguration, tracePath: String, interrupted: @Sendable () -> Bool
  ) -> Result<any RelockRunning, RunnerError> {
    .failure(RunnerError(.spawnFailed, "no relock here"))
  }
}

@Suite(.blocking, .timeLimit(.minutes(TestTime.minutes(10)))) struct ABSessionTests {
  static let base = SyntheticResults.make(runs: 0)

  static func settings(out: String, runs: Int) -> RunSettings {
    var s = RunSettings()
    s.runs = runs
    s.warmup = 1
    s.conditions = [.warm]
    s.configs = [.deferred, .eager]
    s.outDir = out
    return s
  }

  /// Runs an A/B session of the two runners, each side journaling into `out/A` or `out/B`.
  static func run(
    out: String, runs: Int, log: ABCallLog, scaleB: Double
  ) throws -> (results: [ABSide: BenchResults], journals: [ABSide: RunJournal]) {
    var sessions: [ABSide: BenchSession] = [:]
    var journals: [ABSide: RunJournal] = [:]
    let progress = ProgressReporter(total: 0, quiet: true)
    for side in ABSide.allCases {
      let folder = out + "/" + side.rawValue
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let journal = try RunJournal(folder: folder, base: base)
      journals[side] = journal
      sessions[side] = BenchSession(
        settings: settings(out: folder, runs: runs),
        runner: ABSideRunner(side: side.rawValue, scale: side == .a ? 1 : scaleB, log: log),
        progress: progress, base: base, journal: journal, label: side.rawValue,
        interrupted: { log.interrupted.load(ordering: .relaxed) })
    }
    let results = ABSession(
      settings: settings(out: out, runs: runs), sides: sessions, progress: progress,
      interrupted: { log.interrupted.load(ordering: .relaxed) }
    ).run()
    return (results, journals)
  }

  @Test("each side's counted runs go to its own journal, in the A B, B A order; the final results match")
  func journalsPerSide() throws {
    let out = temporaryFolder("ab-session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let log = ABCallLog()
    let (results, journals) = try Self.run(out: out, runs: 4, log: log, scaleB: 1)
    let expected = ABSession.order(conditions: [.warm], configs: [.deferred, .eager], rounds: 5)
    #expect(log.calls.withLock { $0 } == expected.map(\.side.rawValue))
    for side in ABSide.allCases {
      let final = try #require(results[side])
      #expect(final.complete == true && !final.settings.interrupted)
      #expect(final.cells.map(\.runs) == [4, 4])
      let journal = try #require(journals[side])
      let read = try RunJournal.read(path: journal.path)
      // Until the final save (the caller's, with the journal's end line), a rebuild says incomplete.
      #expect(!read.hasEnd && read.results.complete == false)
      #expect(read.results.cells.map { $0.records.map(\.run) } == final.cells.map { $0.records.map(\.run) })
      #expect(read.results.cells.map(\.phases) == final.cells.map(\.phases))
    }
  }

  @Test(
    "an interrupt keeps every finished run of both sides; bench report rebuilds A/ and B/ (complete: false)")
  func interruptKeepsRuns() throws {
    let out = temporaryFolder("ab-session")
    defer { try? FileManager.default.removeItem(atPath: out) }
    // 4 warm-up calls (2 configurations × A, B), then counted ones: the 9th is interrupted.
    let log = ABCallLog(interruptAt: 9)
    let (results, _) = try Self.run(out: out, runs: 10, log: log, scaleB: 1)
    #expect(log.calls.withLock { $0.count } == 9)
    for side in ABSide.allCases {
      #expect(results[side]?.settings.interrupted == true)
      #expect(results[side]?.cells.reduce(0) { $0 + $1.records.count } == 2)
      // As after a SIGKILL: no results.json; the journal alone is rebuilt.
      let folder = out + "/" + side.rawValue
      var output = ""
      var errors = ""
      #expect(ReportCommand.run([folder], output: &output, errors: &errors) == 0, "\(errors)")
      let rebuilt = try ResultsFile.load(path: folder + "/results.json")
      #expect(rebuilt.complete == false && rebuilt.settings.interrupted)
      #expect(rebuilt.cells.reduce(0) { $0 + $1.records.count } == 2)
    }
  }

  @Test("the gate reads B against A: a 30 % slower B fails it, naming the phase; the same B passes")
  func gateDetectsChange() throws {
    for (scale, status) in [(1.3, Int32(1)), (1.0, Int32(0))] {
      let out = temporaryFolder("ab-session")
      defer { try? FileManager.default.removeItem(atPath: out) }
      let (results, _) = try Self.run(out: out, runs: 12, log: ABCallLog(), scaleB: scale)
      for side in ABSide.allCases {
        try ResultsFile.save(try #require(results[side]), to: out + "/\(side.rawValue)/results.json")
      }
      var output = ""
      var errors = ""
      let code = GateCommand.run(
        ["--baseline", out + "/A/results.json", out + "/B/results.json"], output: &output, errors: &errors)
      #expect(code == status, "B × \(scale): \(output)\(errors)")
      if status == 1 { #expect(output.contains("FAIL first_frame_observed deferred/warm"), "\(output)") }
    }
  }
}
