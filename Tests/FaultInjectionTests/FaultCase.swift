import BenchKit
import Foundation
import Gates
import ResultsSchema
import SystemCalls
import TestSupport
import Testing

/// One fault, the outcome it must have, and how to bring it about.
struct FaultCase: Sendable, CustomTestStringConvertible {
  /// The time limit of the suite that runs the cases (every case starts bench and hostile apps;
  /// each also bounds its own waits with deadlines).
  static let timeLimit: TimeLimitTrait = .timeLimit(.minutes(TestTime.minutes(10)))

  let name: String
  /// The expected outcome, in words (the checks below say the same).
  let expected: String
  let body: @Sendable (Workspace) throws -> FaultReport

  var testDescription: String { "\(name): \(expected)" }

  static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent().path
  static let fastProfile = repoRoot + "/Benchmarks/profiles/fast.json"
  static let cameraApp = BuiltProducts.path("camera-app")
  /// The bench under test: the built one, or `FAULT_BENCH` (to run the suite against another
  /// build, e.g. one from before a fix).
  static let bench = ProcessInfo.processInfo.environment["FAULT_BENCH"] ?? BuiltProducts.path("bench")

  /// bench's arguments for `runs` runs of `--app SCRIPT {config}` under warm.
  static func hostile(
    _ script: String, out: String, runs: Int = 2, configs: String = "deferred", timeout: String = "1"
  ) -> [String] {
    [
      "--runs", "\(runs)", "--warmup", "0", "--conditions", "warm", "--configs", configs, "--run-timeout",
      timeout, "--out", out, "--app", script + " {config}",
    ]
  }

  /// The file a waiting app creates first thing, so that a case knows the first run's app is
  /// running (its trace is private to the run and reaches `<out>/traces/` only after it).
  static func appStarted(_ ws: Workspace) -> String { ws.path + "/app-started" }

  /// bench's arguments for `runs` runs of camera-app (fast profile) under warm.
  static func cameraRuns(out: String, runs: Int, configs: String = "deferred,eager") -> [String] {
    [
      "--runs", "\(runs)", "--warmup", "0", "--conditions", "warm", "--configs", configs, "--profile",
      fastProfile, "--out", out,
    ]
  }

  /// The records of the runs kept in `out`.
  static func records(_ out: String) -> [BenchResults.RunRecord] {
    let results =
      (try? ResultsFile.load(path: out + "/results.json", timelines: .none))
      ?? (try? RunJournal.read(path: out + "/" + RunJournal.fileName))?.results
    return results?.cells.flatMap(\.records) ?? []
  }

  /// Checks what every hostile-app case expects: bench ended by itself with `status` (not a signal,
  /// not the deadline), every announced run kept, nothing left behind.
  static func expectCalmEnd(
    _ outcome: BenchProcess.Outcome, status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(!outcome.hung, "bench did not end by the deadline", sourceLocation: sourceLocation)
    #expect(
      outcome.termination == .exited(status), "\(outcome.termination)\n\(outcome.logTail)",
      sourceLocation: sourceLocation)
    #expect(
      outcome.leftovers.isEmpty, "left behind: \(outcome.leftoverDescriptions)",
      sourceLocation: sourceLocation)
  }
}
